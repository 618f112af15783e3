/**
 * Service identification against small fake services on loopback, each speaking just
 * enough of its protocol (written from the protocol specifications).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { identifyService, type IdentifyServiceOptions } from '../../../../server/scanner/net/service-id.ts';
import { decodeDocument } from '../../../../server/scanner/net/probes/bson.ts';
import { opMsg } from '../../../../server/scanner/net/probes/mongodb.ts';
import {
  closeAll,
  startListener,
  type FixtureListener,
  type ListenerOptions,
} from '../../../fixtures/listeners.ts';
import { generateSelfSigned, hasOpenssl } from '../../../fixtures/tls-certificates.ts';

const HOST = '127.0.0.1';
const FAST = { greetingWaitMs: 300, replyWaitMs: 1000, timeoutMs: 8000 };

let listeners: FixtureListener[] = [];
let httpServers: HttpServer[] = [];
afterEach(async () => {
  await closeAll(listeners);
  await Promise.all(httpServers.map((server) => new Promise((resolve) => server.close(resolve))));
  listeners = [];
  httpServers = [];
});

async function listen(options: ListenerOptions): Promise<FixtureListener> {
  const listener = await startListener({ host: HOST, ...options });
  listeners.push(listener);
  return listener;
}

async function listenHttp(server: HttpServer): Promise<number> {
  server.listen(0, HOST);
  await once(server, 'listening');
  httpServers.push(server);
  return (server.address() as AddressInfo).port;
}

function identify(port: number, options: Partial<IdentifyServiceOptions> = {}) {
  return identifyService({ address: HOST, port, assertAllowed: () => {}, ...FAST, ...options });
}

/** Calls `onLine` for each CRLF-terminated line the client sends. */
function lines(socket: Socket, onLine: (line: string) => void): void {
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString('latin1');
    let end: number;
    while ((end = buffered.indexOf('\r\n')) !== -1) {
      onLine(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
    }
  });
}

describe('identifyService on fake services', () => {
  it('identifies HTTP on a non-standard port from its Server header', async () => {
    const port = await listenHttp(
      createHttpServer((_request, response) => {
        response.setHeader('Server', 'Apache/2.4.57 (Debian)');
        response.end('<html><title>It works</title></html>');
      }),
    );
    const result = await identify(port);
    expect(result).toMatchObject({
      address: HOST,
      port,
      service: 'http',
      product: 'Apache',
      version: '2.4.57',
      details: { status: 200, title: 'It works' },
      tool: 'scanward-probe',
    });
    expect(result.evidence.request).toMatch(/^GET \/ HTTP\/1\.1\n/);
    expect(result.evidence.response).toMatch(/Server: Apache\/2\.4\.57/);
  });

  it('identifies Elasticsearch from the JSON it serves on /', async () => {
    const port = await listenHttp(
      createHttpServer((_request, response) => {
        response.setHeader('content-type', 'application/json');
        response.setHeader('X-elastic-product', 'Elasticsearch');
        response.end(
          JSON.stringify({
            name: 'node-1',
            cluster_name: 'fixture',
            version: { number: '8.12.2', build_flavor: 'default', lucene_version: '9.9.2' },
            tagline: 'You Know, for Search',
          }),
        );
      }),
    );
    expect(await identify(port)).toMatchObject({
      service: 'elasticsearch',
      product: 'Elasticsearch',
      version: '8.12.2',
      anonymousAccess: true,
      details: { cluster_name: 'fixture' },
    });
  });

  it('identifies HTTPS: TLS first, then HTTP inside it', async (context) => {
    if (!hasOpenssl()) context.skip('openssl is not available to make a test certificate');
    const server = createHttpsServer(generateSelfSigned('fixture.test'), (_request, response) => {
      response.setHeader('Server', 'nginx/1.25.3');
      response.end('hello');
    });
    const port = await listenHttp(server);
    const result = await identify(port);
    expect(result).toMatchObject({
      service: 'https',
      tls: true,
      product: 'nginx',
      version: '1.25.3',
      details: { cert_subject: 'CN=fixture.test' },
    });
    expect(String(result.details?.tls_protocol)).toMatch(/^TLSv1\.[23]$/);
  });

  it('identifies SSH from its identification string', async () => {
    const listener = await listen({ banner: 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n' });
    const result = await identify(listener.port);
    expect(result).toMatchObject({
      service: 'ssh',
      product: 'OpenSSH',
      version: '9.6p1',
      banner: 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13',
    });
    expect(result.evidence).toEqual({ request: '', response: 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\n' });
  });

  it('identifies FTP from its 220 greeting, confirmed by the rejected EHLO', async () => {
    const listener = await listen({
      banner: '220 (vsFTPd 3.0.5)\r\n',
      serve: (socket) =>
        lines(socket, (line) => {
          if (/^QUIT/i.test(line)) socket.end('221 Goodbye.\r\n');
          else socket.write('500 Unknown command.\r\n');
        }),
    });
    expect(await identify(listener.port)).toMatchObject({
      service: 'ftp',
      product: 'vsftpd',
      version: '3.0.5',
    });
  });

  it('identifies SMTP behind a neutral 220 greeting through EHLO, with its extensions', async () => {
    const listener = await listen({
      banner: '220 relay.fixture.test ready\r\n',
      serve: (socket) =>
        lines(socket, (line) => {
          if (/^EHLO /i.test(line))
            socket.write('250-relay.fixture.test\r\n250-PIPELINING\r\n250-STARTTLS\r\n250 8BITMIME\r\n');
          else if (/^QUIT/i.test(line)) socket.end('221 Bye\r\n');
          else socket.write('502 5.5.2 Error: command not recognized\r\n');
        }),
    });
    const result = await identify(listener.port);
    expect(result).toMatchObject({ service: 'smtp', details: { starttls: true } });
    expect(result.evidence.request).toContain('EHLO scanward.invalid');
  });

  it('asks an HTTP server on a port without a hint at once, without first waiting out the greeting', async () => {
    const port = await listenHttp(createHttpServer((_request, response) => response.end('hello')));
    const started = performance.now();
    const result = await identify(port, { greetingWaitMs: 10_000, replyWaitMs: 10_000, timeoutMs: 30_000 });
    expect(result.service).toBe('http');
    // Well inside the greeting wait: the HTTP probe did not queue behind it.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('identifies Redis that requires a password, without a version', async () => {
    const listener = await listen({
      serve: (socket) => socket.on('data', () => socket.write('-NOAUTH Authentication required.\r\n')),
    });
    const result = await identify(listener.port);
    expect(result).toMatchObject({
      service: 'redis',
      anonymousAccess: false,
      details: { auth_required: true },
    });
    expect(result.version).toBeUndefined();
  });

  it('identifies Memcached from `version`', async () => {
    const listener = await listen({
      serve: (socket) =>
        lines(socket, (line) => socket.write(line === 'version' ? 'VERSION 1.6.21\r\n' : 'ERROR\r\n')),
    });
    expect(await identify(listener.port)).toMatchObject({ service: 'memcached', version: '1.6.21' });
  });

  it('identifies MongoDB through hello and buildInfo, and sees that listing databases needs auth', async () => {
    const listener = await listen({
      serve: (socket) => {
        let buffered = Buffer.alloc(0);
        socket.on('data', (chunk: Buffer) => {
          buffered = Buffer.concat([buffered, chunk]);
          while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
            const length = buffered.readInt32LE(0);
            if (length < 21 || buffered.readInt32LE(12) !== 2013) return void socket.destroy();
            const command = Object.keys(decodeDocument(buffered.subarray(0, length), 21))[0];
            buffered = buffered.subarray(length);
            if (command === 'hello')
              socket.write(opMsg(1, { isWritablePrimary: true, maxWireVersion: 21, ok: 1 }));
            else if (command === 'buildInfo')
              socket.write(opMsg(2, { version: '7.0.5', gitVersion: 'abc123', ok: 1 }));
            else
              socket.write(
                opMsg(3, { ok: 0, errmsg: 'command listDatabases requires authentication', code: 13 }),
              );
          }
        });
      },
    });
    expect(await identify(listener.port)).toMatchObject({
      service: 'mongodb',
      product: 'MongoDB',
      version: '7.0.5',
      anonymousAccess: false,
      details: { max_wire_version: 21 },
    });
  });

  it('identifies an MQTT broker that refuses anonymous clients', async () => {
    const listener = await listen({
      serve: (socket) =>
        socket.on('data', (chunk: Buffer) => {
          if (chunk[0] === 0x10) socket.end(Buffer.from([0x20, 0x02, 0x00, 0x05]));
          else socket.destroy();
        }),
    });
    expect(await identify(listener.port)).toMatchObject({
      service: 'mqtt',
      anonymousAccess: false,
      details: { connack_code: 5, connack: 'not authorized' },
    });
  });

  it('identifies PostgreSQL that asks for a SCRAM password, without guessing a version', async () => {
    const listener = await listen({
      serve: (socket) =>
        socket.on('data', (chunk: Buffer) => {
          if (chunk.length === 8 && chunk.readInt32BE(4) === 80877103) return void socket.write('N');
          if (chunk.length > 8 && chunk.readInt32BE(4) === 196608) {
            const body = Buffer.concat([Buffer.from([0, 0, 0, 10]), Buffer.from('SCRAM-SHA-256\0\0')]);
            const header = Buffer.from([0x52, 0, 0, 0, 0]);
            header.writeInt32BE(body.length + 4, 1);
            return void socket.write(Buffer.concat([header, body]));
          }
          socket.destroy();
        }),
    });
    const result = await identify(listener.port);
    expect(result).toMatchObject({
      service: 'postgresql',
      anonymousAccess: false,
      details: { auth: 'SCRAM-SHA-256', ssl: false },
    });
    expect(result.version).toBeUndefined();
  });

  it('calls a silent port unknown within its time budget', async () => {
    const listener = await listen({});
    const started = performance.now();
    const result = await identify(listener.port);
    expect(result).toMatchObject({ service: 'unknown', port: listener.port, tool: 'scanward-probe' });
    expect(result.version).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(FAST.timeoutMs + 1000);
  });

  it('calls an unrecognised greeting unknown, keeping the greeting as the banner', async () => {
    const listener = await listen({ banner: 'RFB 003.008\n' });
    const result = await identify(listener.port);
    expect(result).toMatchObject({ service: 'unknown', banner: 'RFB 003.008' });
    expect(result.evidence.response).toBe('RFB 003.008\n');
  });

  it('reports a closed port as unknown with the connection error', async () => {
    const listener = await listen({});
    const port = listener.port;
    await listener.close();
    listeners = [];
    expect(await identify(port)).toMatchObject({ service: 'unknown', details: { error: 'ECONNREFUSED' } });
  });
});

describe('identifyService safety', () => {
  it('makes no connection when the scope policy refuses the address', async () => {
    const listener = await listen({ banner: 'SSH-2.0-OpenSSH_9.6\r\n' });
    const refusal = new Error('target not allowed');
    await expect(
      identify(listener.port, {
        assertAllowed: () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    await listener.flush();
    expect(listener.connections).toBe(0);
  });

  it('refuses names instead of resolving them', async () => {
    await expect(identify(22, { address: 'localhost' })).rejects.toThrow(/not an IP address/);
  });

  it('stops promptly when aborted mid-probe and opens nothing afterwards', async () => {
    const controller = new AbortController();
    const listener = await listen({ serve: () => controller.abort(new Error('stop')) });
    const identification = identify(listener.port, {
      signal: controller.signal,
      greetingWaitMs: 5000,
      replyWaitMs: 5000,
      timeoutMs: 30_000,
    });
    const abortedAt = await new Promise<number>((resolve) =>
      controller.signal.addEventListener('abort', () => resolve(performance.now())),
    );
    await expect(identification).rejects.toThrow('stop');
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    await listener.flush();
    expect(listener.connections).toBe(1);
  });
});
