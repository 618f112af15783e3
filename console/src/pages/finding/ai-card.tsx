import { useState } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { REMEDIATION_PRIORITIES } from '../../api/vocabulary';
import { useAction } from '../../data';
import { Problem } from '../../ui';

/**
 * The finding's AI analysis, asked for with a button (every role may read it; the first answer
 * costs a credit of the month's allowance, a second one is free).
 */
export function AiCard({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const action = useAction();
  const [result, setResult] = useState<Schemas['AiAnalysisResponse']>();
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    setBusy(true);
    await action.act(
      api.GET('/api/v1/findings/{finding_id}/ai-analysis', { params: { path: { finding_id: id } } }),
      setResult,
    );
    setBusy(false);
  };
  return (
    <section aria-labelledby="ai">
      <h2 id="ai">AI analysis</h2>
      {!result ? (
        <>
          <p>
            A first analysis costs 1 AI credit of this month&apos;s allowance; asking again for the same
            finding is free.
          </p>
          <button type="button" onClick={() => void ask()} disabled={busy}>
            {busy ? 'Analysing…' : 'Analyse (1 credit)'}
          </button>
          <Problem message={action.error} />
        </>
      ) : (
        <div className="card">
          <p className="sub">
            {result.ai_credits_used} credit{result.ai_credits_used === 1 ? '' : 's'} used · source{' '}
            {result.source === 'builtin' ? 'built-in guidance' : result.source} · priority{' '}
            {REMEDIATION_PRIORITIES.label(result.ai_analysis.remediation_priority)}
          </p>
          <p>{result.ai_analysis.risk_assessment}</p>
          <h3>Attack scenarios</h3>
          <ul>
            {result.ai_analysis.attack_scenarios.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
          <h3>Recommended actions</h3>
          <ol>
            {result.ai_analysis.recommended_actions.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
