import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import type { components } from '../../console/src/api/schema.d.ts';
import type { StubAnswer, StubCall } from '../../console/test/stub-api.ts';
import { useBrowser, type WatchedPage } from './browser.ts';

/**
 * Console components in Chromium with a stub API client. `buildHarness()` bundles
 * console/test/harness.tsx with Vite (the console's own modules, React's development build)
 * and serves it on loopback; `useHarness()` builds it for a describe block, and its
 * `mountSettingsSection(...)` opens it and renders one settings section (`mountComponent(...)`:
 * one part of a form, in a form of console/test/components.tsx) with the console's client
 * over a stub `fetch` handed in through the API context.
 * Every API call the component makes is answered by the test's `stubApi` routes and
 * recorded; a call no route answers is a problem, like a console error.
 */

export type ApiSchemas = components['schemas'];
export type { StubAnswer, StubCall };

const CONSOLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console');

export interface Harness {
  url: string;
  /** Every path the browser asked the harness server for (the page and its assets only). */
  served: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export async function buildHarness(): Promise<Harness> {
  const out = mkdtempSync(path.join(tmpdir(), 'scanward-console-harness-'));
  await build({
    configFile: false,
    root: CONSOLE,
    base: '/',
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic' } },
    build: {
      outDir: out,
      emptyOutDir: true,
      modulePreload: { polyfill: false },
      rolldownOptions: { input: path.join(CONSOLE, 'test/harness.html') },
    },
  });
  const served: string[] = [];
  const server: Server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://harness').pathname;
    served.push(pathname);
    const file = path.join(out, path.normalize(pathname));
    const type = TYPES[path.extname(file)];
    if (request.method !== 'GET' || !type || !file.startsWith(out + path.sep)) {
      response.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/** A route of the stub API: `'DELETE /api/v1/api-keys/:key_id'` → an answer. */
export type StubRoutes = Record<
  string,
  (call: StubCall & { params: Record<string, string> }) => StubAnswer | Promise<StubAnswer>
>;

function routeOf(routes: StubRoutes, call: StubCall) {
  for (const [pattern, answer] of Object.entries(routes)) {
    const [method, route] = pattern.split(' ') as [string, string];
    if (method !== call.method) continue;
    const want = route.split('/');
    const have = call.path.split('/');
    if (want.length !== have.length) continue;
    const params: Record<string, string> = {};
    if (
      want.every((w, i) =>
        w.startsWith(':') ? (params[w.slice(1)] = decodeURIComponent(have[i]!)) : w === have[i],
      )
    )
      return () => answer({ ...call, params });
  }
  return undefined;
}

export interface MountedSection {
  page: Page;
  /** Every API call the component made, in order. */
  calls: StubCall[];
  /** Console errors, page errors, failed requests, and API calls no stub route answers. */
  problems: string[];
  close(): Promise<void>;
}

export interface MountOptions {
  session: ApiSchemas['ConsoleSession'];
  api: StubRoutes;
  viewport?: { width: number; height: number };
}

/** The session components are mounted with unless a test says otherwise: an admin of an enterprise organization. */
export const ADMIN_SESSION: ApiSchemas['ConsoleSession'] = {
  session_id: 'sess_harness',
  csrf_token: 'csrf-of-the-harness-session',
  user: { id: 'user_1', email: 'ada@example.test', role: 'admin', mfa_enabled: false },
  organization: { id: 'org_1', name: 'Harness Org', plan: 'enterprise' },
};

/** `ADMIN_SESSION` with another role: what a viewer or a member is shown. */
export function sessionOf(role: ApiSchemas['ConsoleSession']['user']['role']): ApiSchemas['ConsoleSession'] {
  return { ...ADMIN_SESSION, user: { ...ADMIN_SESSION.user, role } };
}

/** The harness and Chromium for the tests of one describe block (`useHarness`). */
export interface SuiteHarness {
  /** The harness server (read inside tests: it starts before them). */
  readonly harness: Harness;
  /** A settings section (`SETTINGS_SECTIONS` of console/src/pages/settings) by its id. */
  mountSettingsSection(id: string, options: MountOptions): Promise<MountedSection>;
  /** A part of a form, in the small form of console/test/components.tsx that uses it, by its name there. */
  mountComponent(name: string, options: MountOptions): Promise<MountedSection>;
}

/**
 * Builds the harness and launches Chromium (`useBrowser`) before the tests of the calling
 * describe block and closes both after them; whatever went wrong in what a test mounted
 * (console errors, failed requests, API calls no stub route answers) fails that test.
 */
export function useHarness(): SuiteHarness {
  let built: Harness | undefined;
  beforeAll(async () => {
    built = await buildHarness();
  }, 60_000);
  afterAll(async () => {
    await built?.close();
  });
  const harness = (): Harness => {
    if (!built) throw new Error('the harness has not been built: use it inside a test');
    return built;
  };
  const web = useBrowser(() => harness().url);
  const mount =
    (mounter: 'mountSettingsSection' | 'mountComponent') => async (name: string, options: MountOptions) =>
      mountIn(await web.open({ viewport: options.viewport }), mounter, name, options);
  return {
    get harness() {
      return harness();
    },
    mountSettingsSection: mount('mountSettingsSection'),
    mountComponent: mount('mountComponent'),
  };
}

async function mountIn(
  watched: WatchedPage,
  mounter: 'mountSettingsSection' | 'mountComponent',
  name: string,
  options: MountOptions,
): Promise<MountedSection> {
  const calls: StubCall[] = [];
  await watched.page.exposeFunction('answerApiCall', async (call: StubCall): Promise<StubAnswer> => {
    calls.push(call);
    const answer = routeOf(options.api, call);
    if (answer) return answer();
    watched.problems.push(`no stub answers ${call.method} ${call.path}${call.query}`);
    return { status: 501, body: { detail: 'not stubbed', error_code: 'NOT_STUBBED' } };
  });
  await watched.page.goto('/test/harness.html');
  // Runs in the page (a string: the test code has no DOM types).
  await watched.page.evaluate(
    `window.${mounter}(${JSON.stringify(name)}, ${JSON.stringify(options.session)})`,
  );
  return { page: watched.page, calls, problems: watched.problems, close: () => watched.close() };
}

/** A list page of the API, as every list route answers one. */
export function listOf<T>(items: T[]): {
  items: T[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
} {
  return { items, total: items.length, page: 1, per_page: 100, pages: 1 };
}
