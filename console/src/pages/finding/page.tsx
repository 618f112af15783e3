import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { useLoad, type Live } from '../../data';
import { Link } from '../../router';
import { Page, Problem } from '../../ui';
import { AiCard } from './ai-card';
import { AssignmentCard } from './assignment-card';
import { CommentsCard } from './comments-card';
import { EvidenceCard } from './evidence-card';
import { FactsCard } from './facts-card';
import { FrameworksCard } from './frameworks-card';
import { HistoryCard } from './history-card';
import { RemediationCard } from './remediation-card';
import { SourcesCard } from './sources-card';
import { StatusCard } from './status-card';
import { TicketsCard } from './tickets-card';

type Finding = Schemas['FindingDetail'];

/** The finding is read again when someone triages it or a scan finds it again. */
function liveFinding(id: string): Live<Finding> {
  return {
    on: (event) =>
      (event.type === 'finding.updated' || event.type === 'vulnerability.found') && event.data.id === id
        ? 'reload'
        : undefined,
  };
}

/**
 * A finding: what, where, proof, how to fix, compliance, triage, comments, history — one card
 * per file in this folder. The forms a role may not use (docs/roles.md) do not show.
 */
export function FindingDetail({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const {
    data: f,
    error,
    reload,
  } = useLoad(
    () => api.GET('/api/v1/findings/{finding_id}', { params: { path: { finding_id: id } } }),
    `finding/${id}`,
    liveFinding(id),
  );
  const changed = () => void reload();
  return (
    <Page title={f ? f.title : 'Finding'}>
      <p>
        <Link href="/findings">All findings</Link>
      </p>
      <Problem message={error} />
      {f && (
        <div className="detail">
          <div className="main-col">
            <FactsCard finding={f} />
            <EvidenceCard finding={f} />
            <RemediationCard remediation={f.remediation} />
            <FrameworksCard frameworks={f.frameworks} />
            <AiCard id={f.id} />
          </div>
          <div className="side-col">
            <StatusCard finding={f} onChanged={changed} />
            <AssignmentCard key={f.updated_at} finding={f} onChanged={changed} />
            <TicketsCard finding={f} onChanged={changed} />
            <SourcesCard sources={f.sources} />
            <CommentsCard finding={f} onAdded={changed} />
            <HistoryCard history={f.history} />
          </div>
        </div>
      )}
    </Page>
  );
}
