import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FindingFacts } from '../../../server/remediation/finding-facts.ts';
import {
  AnalysisProviderError,
  analyzeWithFallback,
  builtinProvider,
  chatCompletionsUrl,
  openAiCompatibleProvider,
  providerFromConfig,
} from '../../../server/remediation/providers.ts';

const finding: FindingFacts = {
  title: 'Redis server without authentication',
  severity: 'high',
  template_id: 'exposed-redis',
  cve_ids: [],
  cwe_ids: ['CWE-306'],
  target: '10.20.30.40',
  affected_component: 'redis://10.20.30.40:6379',
  evidence: {
    request: 'CONFIG GET requirepass',
    response: 'requirepass=SuperSecret123\nredis_version:7.2.4',
  },
};

const goodAnswer = {
  risk_assessment: 'Redis on 10.20.30.40:6379 answers without a password; an attacker can read every key.',
  attack_scenarios: ['Dump all keys from 10.20.30.40:6379.'],
  remediation_priority: 'high',
  recommended_actions: ['Set requirepass on 10.20.30.40.', 'Firewall 6379/tcp.'],
};

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format: { type: string; json_schema?: { strict: boolean; schema: { required: string[] } } };
  };
}

type Reply = (req: Received, res: ServerResponse) => void;

/** A chat-completions server on 127.0.0.1 that answers with the given handlers, one per request. */
async function fakeProvider(...replies: Reply[]) {
  const received: Received[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const entry: Received = {
      path: req.url ?? '',
      headers: req.headers,
      body: JSON.parse(Buffer.concat(chunks).toString()),
    };
    received.push(entry);
    const reply = replies[received.length - 1] ?? replies[replies.length - 1];
    reply?.(entry, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}/v1`, received };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});

const completion =
  (content: string | null, extra: Record<string, unknown> = {}): Reply =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'c1',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: 'stop' }],
      }),
    );
  };

const status =
  (code: number): Reply =>
  (_req, res) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'response_format json_schema is not supported' } }));
  };

async function failureOf(promise: Promise<unknown>): Promise<AnalysisProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnalysisProviderError);
  return error as AnalysisProviderError;
}

describe('openAiCompatibleProvider', () => {
  it('asks for strict structured JSON and returns the validated answer with automation from the knowledge base', async () => {
    const fake = await fakeProvider(completion(JSON.stringify(goodAnswer)));
    const provider = openAiCompatibleProvider({
      url: fake.url,
      apiKey: 'sk-test',
      model: 'test-model',
      timeoutMs: 5000,
    });

    const analysis = await provider.analyze({ finding });

    expect(provider.name).toBe('test-model');
    expect(analysis).toEqual({
      ...goodAnswer,
      automation_available: true,
      ansible_playbook_id: 'pb_redis_requirepass',
    });
    const [request] = fake.received;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body.model).toBe('test-model');
    expect(request?.body.response_format.type).toBe('json_schema');
    expect(request?.body.response_format.json_schema?.strict).toBe(true);
    expect(request?.body.response_format.json_schema?.schema.required).toEqual([
      'risk_assessment',
      'attack_scenarios',
      'remediation_priority',
      'recommended_actions',
    ]);
  });

  it('sends the finding as data, with secrets in the evidence masked', async () => {
    const fake = await fakeProvider(completion(JSON.stringify(goodAnswer)));
    await openAiCompatibleProvider({ url: fake.url, model: 'm', timeoutMs: 5000 }).analyze({ finding });
    const user = fake.received[0]?.body.messages.find((m) => m.role === 'user')?.content ?? '';
    const payload = JSON.parse(user) as {
      finding: { affected_component: string; evidence: { response: string } };
    };
    expect(payload.finding.affected_component).toBe('redis://10.20.30.40:6379');
    expect(payload.finding.evidence.response).toContain('redis_version:7.2.4');
    expect(user).not.toContain('SuperSecret123');
    expect(fake.received[0]?.headers.authorization).toBeUndefined();
  });

  it('retries with json_object when the server rejects json_schema', async () => {
    const fake = await fakeProvider(
      status(400),
      completion(`\`\`\`json\n${JSON.stringify(goodAnswer)}\n\`\`\``),
    );
    const analysis = await openAiCompatibleProvider({
      url: `${fake.url}/chat/completions`,
      model: 'm',
      timeoutMs: 5000,
    }).analyze({
      finding,
    });
    expect(analysis.remediation_priority).toBe('high');
    expect(fake.received.map((r) => r.body.response_format.type)).toEqual(['json_schema', 'json_object']);
  });

  it('rejects an answer that is not JSON', async () => {
    const fake = await fakeProvider(completion('Sure! Here is my analysis: it is bad.'));
    const error = await failureOf(
      openAiCompatibleProvider({ url: fake.url, model: 'm', timeoutMs: 5000 }).analyze({ finding }),
    );
    expect(error.kind).toBe('invalid_json');
  });

  it('rejects JSON that violates the analysis schema', async () => {
    const fake = await fakeProvider(
      completion(JSON.stringify({ ...goodAnswer, remediation_priority: 'urgent' })),
      completion(JSON.stringify({ ...goodAnswer, attack_scenarios: [] })),
      completion(JSON.stringify({ ...goodAnswer, ansible_playbook_id: 'pb_rm_rf' })),
    );
    const provider = openAiCompatibleProvider({ url: fake.url, model: 'm', timeoutMs: 5000 });
    for (let i = 0; i < 3; i++) {
      const error = await failureOf(provider.analyze({ finding }));
      expect(error.kind).toBe('invalid_output');
    }
  });

  it('reports refusals, HTTP errors and malformed completions as typed errors', async () => {
    const fake = await fakeProvider(
      completion(null, { refusal: 'I cannot help with that.' }),
      status(500),
      (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"choices": []}');
      },
    );
    const provider = openAiCompatibleProvider({ url: fake.url, model: 'm', timeoutMs: 5000 });
    expect((await failureOf(provider.analyze({ finding }))).kind).toBe('refused');
    expect((await failureOf(provider.analyze({ finding }))).kind).toBe('http');
    expect((await failureOf(provider.analyze({ finding }))).kind).toBe('invalid_output');
  });

  it('gives up with a timeout error when the server does not answer in time', async () => {
    const fake = await fakeProvider(() => {
      /* never answers */
    });
    const error = await failureOf(
      openAiCompatibleProvider({ url: fake.url, model: 'm', timeoutMs: 150 }).analyze({ finding }),
    );
    expect(error.kind).toBe('timeout');
    expect(fake.received).toHaveLength(1);
  });

  it('reports an unreachable server as a network error', async () => {
    const fake = await fakeProvider(completion('{}'));
    const url = fake.url;
    for (const server of servers.splice(0)) {
      server.close();
      await once(server, 'close');
    }
    const error = await failureOf(
      openAiCompatibleProvider({ url, model: 'm', timeoutMs: 5000 }).analyze({ finding }),
    );
    expect(error.kind).toBe('network');
  });
});

describe('analyzeWithFallback', () => {
  it('reports the model as the source when the provider answers', async () => {
    const fake = await fakeProvider(completion(JSON.stringify(goodAnswer)));
    const result = await analyzeWithFallback(
      openAiCompatibleProvider({ url: fake.url, model: 'gpt-test', timeoutMs: 5000 }),
      {
        finding,
      },
    );
    expect(result.source).toBe('gpt-test');
    expect(result.fallback_reason).toBeUndefined();
  });

  it('answers from the built-in analyser when the provider fails, and says why', async () => {
    const fake = await fakeProvider(completion('not json'));
    const seen: string[] = [];
    const result = await analyzeWithFallback(
      openAiCompatibleProvider({ url: fake.url, model: 'gpt-test', timeoutMs: 5000 }),
      { finding },
      (e) => seen.push(e.kind),
    );
    expect(result.source).toBe('builtin');
    expect(result.fallback_reason).toBe('invalid_json');
    expect(seen).toEqual(['invalid_json']);
    expect(result.ai_analysis.risk_assessment).toContain('10.20.30.40:6379');
  });

  it('uses the built-in analyser when no provider is configured', async () => {
    const provider = providerFromConfig(undefined);
    expect(provider).toBe(builtinProvider);
    const result = await analyzeWithFallback(provider, { finding });
    expect(result.source).toBe('builtin');
    expect(result.ai_analysis.ansible_playbook_id).toBe('pb_redis_requirepass');
  });
});

describe('chatCompletionsUrl', () => {
  it('accepts a base URL or the full endpoint', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:8080/v1/')).toBe('http://127.0.0.1:8080/v1/chat/completions');
    expect(chatCompletionsUrl('http://127.0.0.1:8080/v1/chat/completions')).toBe(
      'http://127.0.0.1:8080/v1/chat/completions',
    );
  });
});
