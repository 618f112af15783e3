import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner, type Runner } from '../../../../server/scanner/runner.ts';
import { findAnalysis } from '../../../../server/remediation/ai-analyses.repository.ts';
import { findCreditsUsed } from '../../../../server/remediation/ai-credit-usage.repository.ts';
import { creditMonth } from '../../../../server/remediation/credits.ts';
import { getFindingAiAnalysisRoute } from '../../../../server/routes/ai-analysis.ts';
import { listFindingsRoute } from '../../../../server/routes/findings.ts';
import { okBody } from '../../../helpers/api-client.ts';
import { API_KEY, fakeProvider, MODEL, type FakeProvider } from '../../../fixtures/chat-provider.ts';
import {
  closeAll,
  fakeRedis,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../../fixtures/listeners.ts';
import { runScanToEnd } from '../../../helpers/scanner.ts';
import type { TestApp } from '../../../helpers/app.ts';
import { useTestApp } from '../../../helpers/suite-app.ts';
import { factory, type Tenant } from '../../../helpers/factory.ts';
import { testEngine } from '../../../helpers/database.ts';

describe(`ai_analysis phase with a language-model provider (${testEngine})`, () => {
  let provider: FakeProvider;
  let app: TestApp;
  let tenant: Tenant;
  let runner: Runner;
  let listeners: FixtureListener[] = [];

  const suite = useTestApp(async () => {
    provider = await fakeProvider();
    return {
      env: {
        SCANWARD_AI_URL: provider.url,
        SCANWARD_AI_MODEL: MODEL,
        SCANWARD_AI_KEY: API_KEY,
      },
    };
  });
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
    const host = randomLoopbackAddress();
    listeners = [
      await startListener({ host, serve: fakeRedis }),
      await startListener({ host, banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n' }),
    ];
    runner = startRunner(app.services, { pollIntervalMs: 50 });
  });
  afterAll(async () => {
    await runner?.stop();
    await closeAll(listeners);
    await provider?.close();
  });

  it('analyses the new critical finding ahead, charged once, and leaves informational ones alone', async () => {
    const done = await runScanToEnd(
      { app, runner, tenant },
      {
        target: listeners[0]!.host,
        ports: listeners.map((l) => l.port).join(','),
      },
    );
    expect(done.status).toBe('completed');
    // The analyses follow the completion (they are cached per finding, recorded with it).
    await runner.idle();

    const api = await tenant.client();
    const findings = okBody(await api.call(listFindingsRoute, { query: { per_page: 100 } }), 200).items;
    const critical = findings.filter((f) => f.severity === 'critical');
    expect(critical).toHaveLength(1);
    expect(findings.some((f) => f.severity === 'info')).toBe(true);
    // Only the critical finding was sent to the model.
    expect(provider.state.requests).toHaveLength(1);
    expect(provider.state.requests[0]!.authorization).toBe(`Bearer ${API_KEY}`);

    // Kept for the critical finding only (an analysis is not on the wire until asked for).
    for (const f of findings) {
      const cached = await findAnalysis(app.services.db, tenant.orgId, f.id);
      if (f.id === critical[0]!.id) expect(cached).toMatchObject({ source: MODEL });
      else expect(cached, f.severity).toBeUndefined();
    }

    // Asking for it now answers from the cache: no second model call, no further credit.
    const params = { finding_id: critical[0]!.id };
    const body = okBody(await api.call(getFindingAiAnalysisRoute, { params }), 200);
    expect(body).toMatchObject({ finding_id: critical[0]!.id, source: MODEL, ai_credits_used: 0 });
    expect(provider.state.requests).toHaveLength(1);
    expect(await findCreditsUsed(app.services.db, tenant.orgId, creditMonth())).toBe(1);
  });
});
