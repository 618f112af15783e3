import { request } from 'node:https';

/**
 * A fetch over node:https that verifies TLS against one extra CA, the way a process started
 * with NODE_EXTRA_CA_CERTS=<ca> would, without restarting the test process. What the OpenID
 * Connect tests hand the app (`services.oidcFetch`) and use themselves to talk to their
 * loopback identity providers. No redirects are followed (`redirect: 'manual'` semantics).
 */
export function fetchTrusting(ca: string): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body =
      init.body === undefined || init.body === null
        ? undefined
        : Buffer.from(typeof init.body === 'string' ? init.body : String(init.body as URLSearchParams));
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers, ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : [value ?? '']) answer.append(name, one);
          }
          const status = res.statusCode ?? 500;
          const empty = status === 204 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
      });
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
      req.on('error', reject);
      req.end(body);
    });
  };
}
