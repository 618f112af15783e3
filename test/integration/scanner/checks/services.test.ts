/**
 * Network service checks against loopback protocol fixtures, each with the weakness planted
 * and a hardened twin (a finding on the twin is a failure), and against this machine's real
 * Erlang port mapper where there is one.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { erlangDistributionCheck } from '../../../../server/scanner/checks/erlang.ts';
import { exposedServiceChecks } from '../../../../server/scanner/checks/exposed-services.ts';
import { RELAY_RECIPIENT, smtpOpenRelayCheck } from '../../../../server/scanner/checks/smtp-relay.ts';
import { sshProtocolVersion1Check, sshWeakAlgorithmsCheck } from '../../../../server/scanner/checks/ssh.ts';
import { decodeDocument } from '../../../../server/scanner/net/probes/bson.ts';
import { parseEpmdNames } from '../../../../server/scanner/net/probes/erlang.ts';
import { opMsg } from '../../../../server/scanner/net/probes/mongodb.ts';
import { identifyService } from '../../../../server/scanner/net/service-id.ts';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';
import { buildKexInit, type KexInit } from '../../../../server/scanner/net/ssh-kex.ts';
import {
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
  type ListenerOptions,
} from '../../../fixtures/listeners.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

const HOST = randomLoopbackAddress();
const FAST = { greetingWaitMs: 300, replyWaitMs: 1000, timeoutMs: 8000 };
const allow = (a: string): void => {
  if (!a.startsWith('127.')) throw new Error('outside scope');
};

const started: FixtureListener[] = [];
async function listen(options: ListenerOptions, host = HOST): Promise<FixtureListener> {
  const listener = await startListener({ host, ...options });
  started.push(listener);
  return listener;
}
afterAll(async () => {
  await Promise.all(started.map((l) => l.close()));
});

const identify = (port: number, host = HOST): Promise<ServiceIdentification> =>
  identifyService({ address: host, port, assertAllowed: allow, ...FAST });

/** Calls `onLine` for each CRLF-terminated line the client sends. */
function lines(socket: Socket, onLine: (line: string) => void): void {
  let buffered = '';
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    let end: number;
    while ((end = buffered.indexOf('\r\n')) !== -1) {
      onLine(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
    }
  });
}

function listening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('Erlang port mapper and distribution', () => {
  const epmdAnswer = (nodes: { name: string; port: number }[]): Buffer =>
    Buffer.concat([
      Buffer.from([0, 0, 0x11, 0x11]),
      Buffer.from(nodes.map((n) => `name ${n.name} at port ${n.port}\n`).join('')),
    ]);

  it('parses a NAMES answer and refuses anything else', () => {
    expect(parseEpmdNames(epmdAnswer([{ name: 'rabbit', port: 25672 }]))).toEqual({
      epmdPort: 4369,
      nodes: [{ name: 'rabbit', port: 25672 }],
    });
    expect(parseEpmdNames(Buffer.from('HTTP/1.1 400 Bad Request\r\n'))).toBeUndefined();
  });

  /** A fake epmd on port 4369 of its own loopback address (the port its hint needs), unless that port is taken everywhere. */
  const fakeEpmd = async (host: string, answer: () => Buffer): Promise<FixtureListener | undefined> => {
    try {
      return await listen({ port: 4369, serve: (s) => s.once('data', () => s.end(answer())) }, host);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return undefined;
      throw error;
    }
  };

  it('names epmd on 4369 and reports a node whose distribution port is reachable, not one without nodes', async (ctx) => {
    const host = randomLoopbackAddress();
    const distribution = await listen({}, host);
    const weak = await fakeEpmd(host, () => epmdAnswer([{ name: 'couchdb', port: distribution.port }]));
    if (!weak)
      return ctx.skip(
        'port 4369 is taken on every loopback address here (an epmd bound to the wildcard address)',
      );
    const service = await identify(weak.port, host);
    expect(service).toMatchObject({
      service: 'epmd',
      details: { epmd_nodes: `couchdb:${distribution.port}` },
    });
    const [finding, ...rest] = await erlangDistributionCheck.run(checkContext(host), service);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      check_id: 'erlang-distribution-exposed',
      title: 'Erlang distribution reachable from the network (nodes couchdb)',
      severity: 'high',
      affected_component: `epmd://${host}:4369`,
    });
    expect(finding!.evidence.response).toContain(
      `node couchdb: distribution port ${distribution.port} accepts TCP connections`,
    );
    expect(distribution.connections).toBe(1);

    const hardenedHost = randomLoopbackAddress();
    const hardened = await fakeEpmd(hardenedHost, () => epmdAnswer([]));
    const empty = await identify(hardened!.port, hardenedHost);
    expect(empty.service).toBe('epmd');
    expect(await erlangDistributionCheck.run(checkContext(hardenedHost), empty)).toEqual([]);
  });

  it('rates a node whose distribution port is closed low, not high', async () => {
    const [finding] = await erlangDistributionCheck.run(
      checkContext(HOST),
      serviceAt(HOST, 4369, 'epmd', { details: { epmd_nodes: 'rabbit:1' }, banner: 'name rabbit at port 1' }),
    );
    expect(finding).toMatchObject({
      severity: 'low',
      title: 'Erlang port mapper publishes the nodes of the host',
    });
  });

  it('reports this machine’s real epmd and the RabbitMQ distribution port it publishes', async (ctx) => {
    if (!(await listening('127.0.0.1', 4369))) return ctx.skip('no epmd listens on 127.0.0.1:4369 here');
    const service = await identify(4369, '127.0.0.1');
    expect(service.service).toBe('epmd');
    const findings = await erlangDistributionCheck.run(checkContext('127.0.0.1'), service);
    if (findings.length === 0)
      return ctx.skip(`epmd on 127.0.0.1:4369 lists no nodes here (${service.banner ?? ''})`);
    expect(findings[0]!.description).toMatch(/lists \d+ node\(s\): \S+ \(port \d+\)/);
    const node = /name (\S+) at port (\d+)/.exec(service.banner ?? '');
    if (node && (await listening('127.0.0.1', Number(node[2])))) {
      expect(findings[0]!.severity).toBe('high');
      const dist = await identify(Number(node[2]), '127.0.0.1');
      if (node[2] === '25672') expect(dist).toMatchObject({ service: 'erlang-dist' });
    }
  });
});

describe('SSH algorithms and version', () => {
  const WEAK: KexInit = {
    kex: ['curve25519-sha256', 'diffie-hellman-group1-sha1'],
    hostKey: ['ssh-ed25519', 'ssh-dss'],
    ciphers: ['aes128-ctr', '3des-cbc', 'aes128-cbc'],
    macs: ['hmac-sha2-256', 'hmac-md5'],
    compression: ['none'],
  };
  const HARDENED: KexInit = {
    kex: ['curve25519-sha256', 'sntrup761x25519-sha512@openssh.com'],
    hostKey: ['ssh-ed25519', 'rsa-sha2-512'],
    ciphers: ['chacha20-poly1305@openssh.com', 'aes256-gcm@openssh.com'],
    macs: ['hmac-sha2-256-etm@openssh.com'],
    compression: ['none'],
  };
  const sshServer = (banner: string, offer: KexInit) =>
    listen({ banner: `${banner}\r\n`, serve: (s) => s.once('data', () => s.write(buildKexInit(offer))) });

  it('reports the weak algorithms a server offers, with the whole offer as evidence; nothing on a hardened twin', async () => {
    const weak = await sshServer('SSH-2.0-OpenSSH_7.4', WEAK);
    const hardened = await sshServer('SSH-2.0-OpenSSH_9.6', HARDENED);
    const service = await identify(weak.port);
    expect(service).toMatchObject({ service: 'ssh', product: 'OpenSSH', version: '7.4' });
    const [finding, ...rest] = await sshWeakAlgorithmsCheck.run(checkContext(HOST), service);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      check_id: 'ssh-weak-algorithms',
      severity: 'medium',
      title:
        'SSH server offers weak algorithms (diffie-hellman-group1-sha1, ssh-dss, 3des-cbc, aes128-cbc, …)',
    });
    expect(finding!.description).toContain('MAC hmac-md5 (MD5)');
    expect(finding!.evidence.response).toContain('kex: curve25519-sha256,diffie-hellman-group1-sha1');
    expect(finding!.evidence.response).toContain('identification: SSH-2.0-OpenSSH_7.4');
    expect(await sshWeakAlgorithmsCheck.run(checkContext(HOST), await identify(hardened.port))).toEqual([]);
  });

  it('reports a server that still speaks SSH protocol 1, not one that speaks only 2', async () => {
    const old = await sshServer('SSH-1.99-OpenSSH_3.9p1', HARDENED);
    const current = await sshServer('SSH-2.0-OpenSSH_9.6', HARDENED);
    const [finding] = await sshProtocolVersion1Check.run(checkContext(HOST), await identify(old.port));
    expect(finding).toMatchObject({ title: 'SSH server still accepts protocol version 1', severity: 'high' });
    expect(await sshProtocolVersion1Check.run(checkContext(HOST), await identify(current.port))).toEqual([]);
  });
});

describe('SMTP open relay', () => {
  function smtpServer(relays: boolean) {
    const commands: string[] = [];
    const listener = listen({
      banner: '220 mail.fixture.test ESMTP Postfix\r\n',
      serve: (socket) =>
        lines(socket, (line) => {
          commands.push(line);
          const verb = line.split(/[ :]/)[0]!.toUpperCase();
          if (verb === 'EHLO') socket.write('250-mail.fixture.test\r\n250-PIPELINING\r\n250 8BITMIME\r\n');
          else if (verb === 'MAIL' || verb === 'RSET') socket.write('250 2.1.0 Ok\r\n');
          else if (verb === 'RCPT')
            socket.write(
              relays ? '250 2.1.5 Ok\r\n' : '554 5.7.1 <relay-test@example.net>: Relay access denied\r\n',
            );
          else if (verb === 'QUIT') socket.end('221 2.0.0 Bye\r\n');
          else socket.write('502 5.5.2 Error: command not recognized\r\n');
        }),
    });
    return { listener, commands };
  }

  it('reports a server that accepts an outside recipient, never sends DATA, and finds nothing on a hardened twin', async () => {
    const open = smtpServer(true);
    const closed = smtpServer(false);
    const openService = serviceAt(HOST, (await open.listener).port, 'smtp');
    const [finding, ...rest] = await smtpOpenRelayCheck.run(checkContext(HOST), openService);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ check_id: 'smtp-open-relay' });
    expect(finding!.evidence.response).toContain('RCPT TO → 250 2.1.5 Ok');
    expect(open.commands).toContain(`RCPT TO:<${RELAY_RECIPIENT}>`);
    expect(open.commands.some((c) => /^DATA/i.test(c))).toBe(false);
    expect(open.commands.at(-1)).toBe('QUIT');

    expect(
      await smtpOpenRelayCheck.run(checkContext(HOST), serviceAt(HOST, (await closed.listener).port, 'smtp')),
    ).toEqual([]);
    expect(closed.commands.some((c) => /^DATA/i.test(c))).toBe(false);
  });
});

/** An OP_MSG reply `{databases: [{name}...], ok: 1}` (the probe's encoder writes flat documents only). */
function listDatabasesReply(names: string[]): Buffer {
  const element = (type: number, key: string, value: Buffer): Buffer =>
    Buffer.concat([Buffer.from([type]), Buffer.from(`${key}\0`), value]);
  const document = (elements: Buffer[]): Buffer => {
    const body = Buffer.concat([...elements, Buffer.from([0])]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(body.length + 4, 0);
    return Buffer.concat([size, body]);
  };
  const string = (text: string): Buffer => {
    const size = Buffer.alloc(4);
    size.writeInt32LE(Buffer.byteLength(text) + 1, 0);
    return Buffer.concat([size, Buffer.from(`${text}\0`)]);
  };
  const one = Buffer.alloc(8);
  one.writeDoubleLE(1, 0);
  const body = document([
    element(
      0x04,
      'databases',
      document(
        names.map((name, i) => element(0x03, String(i), document([element(0x02, 'name', string(name))]))),
      ),
    ),
    element(0x01, 'ok', one),
  ]);
  const header = Buffer.alloc(21);
  header.writeInt32LE(21 + body.length, 0);
  header.writeInt32LE(3, 4);
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, body]);
}

describe('NATS without authentication', () => {
  const info = (authRequired: boolean): string =>
    `INFO {"server_id":"NFIXTURE","server_name":"fixture","version":"2.10.7","proto":1,"go":"go1.21.5",` +
    `"host":"0.0.0.0","port":4222,"headers":true,"auth_required":${authRequired},"max_payload":1048576}\r\n`;
  /** A NATS server: INFO on connect, then +OK and PONG, or the error a server that wants credentials sends. */
  const natsServer = (infoSays: boolean, letsIn: boolean) => {
    const received: string[] = [];
    const listener = listen({
      banner: info(infoSays),
      serve: (socket) =>
        lines(socket, (line) => {
          received.push(line);
          if (line.startsWith('CONNECT')) {
            if (!letsIn) socket.end("-ERR 'Authorization Violation'\r\n");
            else socket.write('+OK\r\n');
          } else if (line === 'PING' && letsIn) socket.write('PONG\r\n');
        }),
    });
    return { listener, received };
  };
  const natsCheck = () => {
    const check = exposedServiceChecks.find((c) => c.id === 'nats-no-auth');
    if (!check) throw new Error('nats-no-auth is not registered');
    return check;
  };

  it('proves the access with the INFO line and the unauthenticated CONNECT/PING answered by PONG', async () => {
    const open = natsServer(false, true);
    const service = await identify((await open.listener).port);
    expect(service).toMatchObject({ service: 'nats', anonymousAccess: true });
    const [finding, ...rest] = await natsCheck().run(checkContext(HOST), service);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      check_id: 'nats-no-auth',
      affected_component: `nats://${HOST}:${service.port}`,
    });
    expect(finding!.evidence.request).toContain('CONNECT {"verbose":true');
    expect(finding!.evidence.request).toContain('PING');
    expect(finding!.evidence.request).not.toMatch(/user|pass|token|nkey/i);
    expect(finding!.evidence.response).toMatch(/^INFO \{"server_id":"NFIXTURE"/);
    expect(finding!.evidence.response).toContain('+OK\nPONG');
    expect(open.received.some((line) => /^(SUB|PUB)\b/.test(line))).toBe(false);
  });

  it('reports nothing when the server wants credentials, whatever its INFO line says', async () => {
    const guarded = natsServer(true, false);
    const guardedService = await identify((await guarded.listener).port);
    expect(guardedService).toMatchObject({ service: 'nats', anonymousAccess: false });
    expect(await natsCheck().run(checkContext(HOST), guardedService)).toEqual([]);
    // INFO says no authentication, the CONNECT is refused all the same: not proven, no finding.
    const refusing = natsServer(false, false);
    const refusingService = await identify((await refusing.listener).port);
    expect(refusingService.anonymousAccess).toBe(true);
    expect(await natsCheck().run(checkContext(HOST), refusingService)).toEqual([]);
  });
  it('proves it, or finds nothing, on this machine’s real NATS where there is one', async (ctx) => {
    if (!(await listening('127.0.0.1', 4222))) return ctx.skip('no NATS listens on 127.0.0.1:4222 here');
    const service = await identify(4222, '127.0.0.1');
    if (service.service !== 'nats') return ctx.skip(`127.0.0.1:4222 is ${service.service} here, not NATS`);
    const findings = await natsCheck().run(checkContext('127.0.0.1'), service);
    if (service.anonymousAccess !== true) {
      expect(findings).toEqual([]);
      return;
    }
    for (const finding of findings) {
      expect(finding.evidence.response).toMatch(/^INFO \{/);
      expect(finding.evidence.response).toMatch(/\nPONG$/);
    }
  });
});

describe('Memcached, Elasticsearch/OpenSearch and MongoDB exposure', () => {
  const exposure = (id: string) => exposedServiceChecks.find((c) => c.id === id)!;
  const runAll = async (service: ServiceIdentification) =>
    (
      await Promise.all(
        exposedServiceChecks
          .filter((c) => c.appliesTo(service))
          .map((c) => c.run(checkContext(HOST), service)),
      )
    ).flat();

  it('memcached: reports one that answers an unauthenticated client, not one that demands SASL', async () => {
    const weak = await listen({
      serve: (s) =>
        lines(s, (l) =>
          s.write(
            l === 'version'
              ? 'VERSION 1.6.21\r\n'
              : l === 'stats'
                ? 'STAT pid 1\r\nSTAT uptime 42\r\nSTAT curr_items 7\r\nEND\r\n'
                : 'ERROR\r\n',
          ),
        ),
    });
    const hardened = await listen({
      serve: (s) => lines(s, () => s.end('CLIENT_ERROR unauthenticated\r\n')),
    });
    const [finding] = await exposure('memcached-exposed').run(checkContext(HOST), await identify(weak.port));
    expect(finding).toMatchObject({
      check_id: 'memcached-exposed',
      affected_component: `memcached://${HOST}:${weak.port}`,
    });
    expect(finding!.evidence.response).toContain('VERSION 1.6.21');
    expect(finding!.evidence.response).toContain('STAT curr_items 7');
    expect(await runAll(await identify(hardened.port))).toEqual([]);
  });

  it('Elasticsearch and OpenSearch: reports a cluster open to anonymous reads, not one answering 401', async () => {
    const http = (status: number, body: object) =>
      listen({
        serve: (s) =>
          s.once('data', () => {
            const text = JSON.stringify(body);
            s.end(
              `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Unauthorized'}\r\ncontent-type: application/json\r\n` +
                `X-elastic-product: Elasticsearch\r\ncontent-length: ${text.length}\r\n\r\n${text}`,
            );
          }),
      });
    const open = await http(200, {
      cluster_name: 'fixture',
      version: { number: '2.11.0', distribution: 'opensearch', lucene_version: '9.7.0' },
      tagline: 'The OpenSearch Project: https://opensearch.org/',
    });
    const secured = await http(401, { error: 'security_exception' });
    const openService = await identify(open.port);
    expect(openService).toMatchObject({ service: 'elasticsearch', product: 'OpenSearch', version: '2.11.0' });
    const [finding] = await exposure('elasticsearch-unauthenticated').run(checkContext(HOST), openService);
    expect(finding).toMatchObject({
      severity: 'high',
      description: expect.stringContaining('OpenSearch 2.11.0'),
    });
    expect(await runAll(await identify(secured.port))).toEqual([]);
  });

  it('MongoDB: reports a server that lists databases without authentication, not one that requires it', async () => {
    const mongo = (open: boolean) =>
      listen({
        serve: (socket) => {
          let buffered = Buffer.alloc(0);
          socket.on('data', (chunk: Buffer) => {
            buffered = Buffer.concat([buffered, chunk]);
            while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
              const length = buffered.readInt32LE(0);
              const command = Object.keys(decodeDocument(buffered.subarray(0, length), 21))[0];
              buffered = buffered.subarray(length);
              if (command === 'hello')
                socket.write(opMsg(1, { isWritablePrimary: true, maxWireVersion: 21, ok: 1 }));
              else if (command === 'buildInfo') socket.write(opMsg(2, { version: '7.0.5', ok: 1 }));
              else if (open) socket.write(listDatabasesReply(['admin', 'shop']));
              else
                socket.write(
                  opMsg(3, { ok: 0, errmsg: 'command listDatabases requires authentication', code: 13 }),
                );
            }
          });
        },
      });
    const open = await mongo(true);
    const secured = await mongo(false);
    const [finding] = await exposure('mongodb-unauthenticated').run(
      checkContext(HOST),
      await identify(open.port),
    );
    expect(finding).toMatchObject({
      severity: 'critical',
      affected_component: `mongodb://${HOST}:${open.port}`,
    });
    expect(await runAll(await identify(secured.port))).toEqual([]);
  });
});
