import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The console's lint rule (eslint.config.js, `console/writes-through-use-action`) bites, as
 * test/unit/lint-rules.test.ts proves the server's do: each snippet is linted with the
 * repository's eslint.config.js under the path it names, and exactly the expected messages
 * come back. A write to the API (`POST`, `PUT`, `PATCH`, `DELETE`) is the first argument of an
 * `act(...)` of useAction or useCollection (console/src/data.ts), or it is refused.
 */

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath });
  return (result?.messages ?? []).map((m) => `${m.line}: ${m.ruleId}: ${m.message}`);
}

const PROBE = [
  "import { apiClientRef, useApi } from '../api/context';",
  "import { useAction, useCollection } from '../data';",
  'export function useProbe(id: string) {',
  '  const api = useApi(apiClientRef);',
  '  const action = useAction();',
  "  const keys = useCollection('probe', () => api.GET('/api/v1/api-keys'));",
  "  void action.act(api.PATCH('/api/v1/findings/{finding_id}', { params: { path: { finding_id: id } }, body: {} }));",
  "  void keys.act(api.DELETE('/api/v1/api-keys/{key_id}', { params: { path: { key_id: id } } }), () => 'Gone.');",
  "  void api.POST('/api/v1/findings/{finding_id}/comments', { params: { path: { finding_id: id } }, body: { text: '' } });",
  "  const later = api.PUT('/api/v1/settings/sla', { body: {} as never });",
  '  void action.act(later);',
  "  void action.act(Promise.resolve(api.DELETE('/api/v1/auth/console/session')));",
  '}',
].join('\n');

describe('the console lint rule: every write through useAction', () => {
  it('refuses a write to the API that is not the first argument of act(...), and lets reads and act(write) be', async () => {
    const found = await problems('console/src/pages/probe.tsx', PROBE);
    expect(found).toEqual([
      expect.stringMatching(/^9: console\/writes-through-use-action: Send `POST` through useAction/),
      expect.stringMatching(/^10: console\/writes-through-use-action: Send `PUT` through useAction/),
      expect.stringMatching(/^12: console\/writes-through-use-action: Send `DELETE` through useAction/),
    ]);
  });

  it('holds in the console only: a test helper outside console/src may call the client as it likes', async () => {
    const found = await problems('console/test/probe.tsx', PROBE);
    expect(found.filter((p) => p.includes('writes-through-use-action'))).toEqual([]);
  });
});
