/**
 * What passes between a component rendered by the harness (harness.tsx, in the browser) and
 * the test that answers its API calls (test/helpers/console-components.ts, in Node).
 */

/** A request the component made, as the test sees it. */
export interface StubCall {
  method: string;
  path: string;
  /** The query string, `?` included, or empty. */
  query: string;
  headers: Record<string, string>;
  /**
   * The JSON body, parsed; a multipart form as its fields, each file as `{filename, text}`;
   * undefined when none.
   */
  body: unknown;
}

/** What the stub answers: a status and a JSON body (none for 204). */
export interface StubAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
