import { describe, expect, it } from 'vitest';
import { isSelfConnect, classifyError } from '../../../../server/scanner/net/connectors.ts';
import { renderBytes } from '../../../../server/scanner/net/probe-session.ts';
import { AMQP_0_9_1_HEADER, parseConnectionStart } from '../../../../server/scanner/net/probes/amqp.ts';
import { decodeDocument, encodeDocument } from '../../../../server/scanner/net/probes/bson.ts';
import { greetingComplete } from '../../../../server/scanner/net/probes/catalogue.ts';
import { identifyHttp, parseHttpResponse } from '../../../../server/scanner/net/probes/http.ts';
import { parseOpMsgReply, opMsg } from '../../../../server/scanner/net/probes/mongodb.ts';
import { connectPacket, parsePackets } from '../../../../server/scanner/net/probes/mqtt.ts';
import { mysql, productVersion } from '../../../../server/scanner/net/probes/mysql.ts';
import { nats } from '../../../../server/scanner/net/probes/nats.ts';
import {
  fromStartupAnswer,
  parseBackendMessages,
  startupMessage,
} from '../../../../server/scanner/net/probes/postgresql.ts';
import { productAndVersion } from '../../../../server/scanner/net/probes/probe.ts';
import { ssh } from '../../../../server/scanner/net/probes/ssh.ts';
import { ftpOrSmtp } from '../../../../server/scanner/net/probes/ftp-smtp.ts';
import { componentUrl } from '../../../../server/scanner/net/services.ts';
import { ipFamily, TargetAddressError } from '../../../../server/scanner/net/target-address.ts';

function mysqlHandshake(version: string, plugin = 'caching_sha2_password'): Buffer {
  const payload = Buffer.concat([
    Buffer.from([0x0a]),
    Buffer.from(`${version}\0`, 'latin1'),
    Buffer.from([1, 0, 0, 0]), // connection id
    Buffer.alloc(8, 0x41), // auth data part 1
    Buffer.from([0]), // filler
    Buffer.from([0xff, 0xf7]), // capabilities low
    Buffer.from([0x2d]), // charset
    Buffer.from([2, 0]), // status
    Buffer.from([0xff, 0x81]), // capabilities high
    Buffer.from([21]), // auth data length
    Buffer.alloc(10), // reserved
    Buffer.concat([Buffer.alloc(12, 0x42), Buffer.from([0])]), // auth data part 2 (13)
    Buffer.from(`${plugin}\0`, 'latin1'),
  ]);
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  return Buffer.concat([header, payload]);
}

describe('banner protocols', () => {
  it('reads product and version from an SSH identification string', () => {
    expect(ssh.recognize(Buffer.from('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n'))).toMatchObject({
      service: 'ssh',
      product: 'OpenSSH',
      version: '9.2p1',
      details: { ssh_protocol: '2.0', comments: 'Debian-2+deb12u3' },
    });
    expect(ssh.recognize(Buffer.from('SSH-2.0-dropbear_2022.83\r\n'))).toMatchObject({
      product: 'dropbear',
      version: '2022.83',
    });
    expect(ssh.recognize(Buffer.from('HTTP/1.1 400 Bad Request\r\n'))).toBeNull();
  });

  it('reads MySQL and MariaDB handshake packets', () => {
    expect(mysql.recognize(mysqlHandshake('8.0.36-0ubuntu0.22.04.1'))).toMatchObject({
      service: 'mysql',
      product: 'MySQL',
      version: '8.0.36',
      details: { auth_plugin: 'caching_sha2_password' },
    });
    expect(productVersion('5.5.5-10.11.6-MariaDB-0+deb12u1')).toEqual({
      product: 'MariaDB',
      version: '10.11.6',
    });
    expect(greetingComplete(mysqlHandshake('8.0.36'))).toBe(true);
    expect(greetingComplete(mysqlHandshake('8.0.36').subarray(0, 20))).toBe(false);
  });

  it('reads a MySQL error packet without claiming a version', () => {
    const message = "Host '10.0.0.9' is not allowed to connect to this MariaDB server";
    const payload = Buffer.concat([Buffer.from([0xff, 0x6a, 0x04]), Buffer.from(message, 'latin1')]);
    const header = Buffer.alloc(4);
    header.writeUIntLE(payload.length, 0, 3);
    const finding = mysql.recognize(Buffer.concat([header, payload]));
    expect(finding).toMatchObject({ service: 'mysql', product: 'MariaDB', details: { error_code: 1130 } });
    expect(finding?.version).toBeUndefined();
  });

  it('reads the NATS INFO line', () => {
    const info = {
      server_id: 'NABC',
      server_name: 'n1',
      version: '2.10.7',
      auth_required: true,
      go: 'go1.21',
    };
    expect(nats.recognize(Buffer.from(`INFO ${JSON.stringify(info)} \r\n`))).toMatchObject({
      service: 'nats',
      version: '2.10.7',
      anonymousAccess: false,
      details: { server_name: 'n1', auth_required: true },
    });
    expect(nats.recognize(Buffer.from('INFO not json\r\n'))).toBeNull();
  });

  it('tells FTP from SMTP greetings where the text says so', () => {
    expect(ftpOrSmtp.recognize(Buffer.from('220 (vsFTPd 3.0.3)\r\n'))).toMatchObject({
      service: 'ftp',
      product: 'vsftpd',
      version: '3.0.3',
    });
    expect(
      ftpOrSmtp.recognize(Buffer.from('220 mx.example.org ESMTP Exim 4.96 Mon, 1 Jan 2024\r\n')),
    ).toMatchObject({ service: 'smtp', product: 'Exim', version: '4.96' });
    expect(ftpOrSmtp.recognize(Buffer.from('421 too busy\r\n'))).toBeNull();
  });

  it('waits for the last line of a multi-line greeting', () => {
    expect(greetingComplete(Buffer.from('220-first\r\n'))).toBe(false);
    expect(greetingComplete(Buffer.from('220-first\r\n220 last\r\n'))).toBe(true);
    expect(greetingComplete(Buffer.from('SSH-2.0-Open'))).toBe(false);
  });
});

describe('HTTP', () => {
  it('reads the Server header into product and version', () => {
    const response = parseHttpResponse(
      Buffer.from(
        'HTTP/1.1 200 OK\r\nServer: nginx/1.24.0 (Ubuntu)\r\nContent-Length: 27\r\n\r\n<title>Welcome</title>hello',
      ),
    );
    expect(response?.status).toBe(200);
    expect(identifyHttp(response!, { tls: false })).toMatchObject({
      service: 'http',
      product: 'nginx',
      version: '1.24.0',
      details: { status: 200, title: 'Welcome' },
    });
    expect(identifyHttp(response!, { tls: true }).service).toBe('https');
  });

  it('recognises Elasticsearch from its JSON banner, chunked or not', () => {
    const body = JSON.stringify({
      name: 'node-1',
      cluster_name: 'prod',
      version: { number: '8.11.3', build_flavor: 'default', lucene_version: '9.8.0' },
      tagline: 'You Know, for Search',
    });
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const response = parseHttpResponse(
      Buffer.from(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n${chunked}`,
      ),
    );
    expect(identifyHttp(response!, { tls: false })).toMatchObject({
      service: 'elasticsearch',
      product: 'Elasticsearch',
      version: '8.11.3',
      anonymousAccess: true,
      details: { cluster_name: 'prod' },
    });
  });

  it('recognises a secured Elasticsearch by its header, without inventing a version', () => {
    const response = parseHttpResponse(
      Buffer.from(
        'HTTP/1.1 401 Unauthorized\r\nX-elastic-product: Elasticsearch\r\nContent-Length: 0\r\n\r\n',
      ),
    );
    const finding = identifyHttp(response!, { tls: false });
    expect(finding).toMatchObject({ service: 'elasticsearch', anonymousAccess: false });
    expect(finding.version).toBeUndefined();
  });

  it('is not fooled by other protocols', () => {
    expect(parseHttpResponse(Buffer.from('-ERR unknown command\r\n'))).toBeUndefined();
    expect(productAndVersion('cloudflare')).toEqual({ product: 'cloudflare' });
    expect(productAndVersion('Apache/2.4.57 (Debian) OpenSSL/3.0.11')).toEqual({
      product: 'Apache',
      version: '2.4.57',
    });
  });
});

describe('PostgreSQL', () => {
  const message = (type: string, body: Buffer): Buffer => {
    const header = Buffer.alloc(5);
    header.write(type, 0, 'latin1');
    header.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([header, body]);
  };
  const int32 = (value: number): Buffer => {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32BE(value);
    return buffer;
  };

  it('builds a protocol 3.0 startup message', () => {
    const startup = startupMessage({ user: 'postgres' });
    expect(startup.readInt32BE(0)).toBe(startup.length);
    expect(startup.readInt32BE(4)).toBe(196608);
    expect(startup.subarray(8).toString('latin1')).toBe('user\0postgres\0\0');
  });

  it('reports a SCRAM password request as no anonymous access, without a version', () => {
    const answer = message('R', Buffer.concat([int32(10), Buffer.from('SCRAM-SHA-256\0\0')]));
    const finding = fromStartupAnswer(parseBackendMessages(answer), true);
    expect(finding).toMatchObject({
      service: 'postgresql',
      anonymousAccess: false,
      details: { auth: 'SCRAM-SHA-256', ssl: true },
    });
    expect(finding?.version).toBeUndefined();
  });

  it('reports trust with the server_version parameter', () => {
    const answer = Buffer.concat([
      message('R', int32(0)),
      message('S', Buffer.from('server_version\x0016.2 (Debian 16.2-1)\0')),
      message('Z', Buffer.from('I')),
    ]);
    expect(fromStartupAnswer(parseBackendMessages(answer), false)).toMatchObject({
      version: '16.2',
      anonymousAccess: true,
      details: { auth: 'trust' },
    });
  });

  it('reports a pg_hba rejection as PostgreSQL with the error', () => {
    const answer = message('E', Buffer.from('SFATAL\0C28000\0Mno pg_hba.conf entry for host "10.1.1.1"\0\0'));
    expect(fromStartupAnswer(parseBackendMessages(answer), false)).toMatchObject({
      service: 'postgresql',
      details: { sqlstate: '28000' },
    });
    expect(fromStartupAnswer(parseBackendMessages(Buffer.from('garbage!')), false)).toBeNull();
  });
});

describe('AMQP', () => {
  it('parses Connection.Start server properties', () => {
    const shortString = (text: string): Buffer =>
      Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);
    const longString = (bytes: Buffer): Buffer => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return Buffer.concat([length, bytes]);
    };
    const field = (name: string, type: string, value: Buffer): Buffer =>
      Buffer.concat([shortString(name), Buffer.from(type), value]);
    const capabilities = longString(field('publisher_confirms', 't', Buffer.from([1])));
    const table = longString(
      Buffer.concat([
        field('capabilities', 'F', capabilities),
        field('product', 'S', longString(Buffer.from('RabbitMQ'))),
        field('version', 'S', longString(Buffer.from('3.12.4'))),
      ]),
    );
    const payload = Buffer.concat([
      Buffer.from([0, 10, 0, 10, 0, 9]),
      table,
      longString(Buffer.from('PLAIN AMQPLAIN')),
      longString(Buffer.from('en_US')),
    ]);
    const header = Buffer.alloc(7);
    header.writeUInt8(1, 0);
    header.writeUInt32BE(payload.length, 3);
    const start = parseConnectionStart(Buffer.concat([header, payload, Buffer.from([0xce])]));
    expect(start?.serverProperties.product?.toString()).toBe('RabbitMQ');
    expect(start?.serverProperties.version?.toString()).toBe('3.12.4');
    expect(start?.mechanisms).toEqual(['PLAIN', 'AMQPLAIN']);
    expect(AMQP_0_9_1_HEADER.toString('latin1')).toBe('AMQP\0\0\t\x01');
  });
});

describe('MQTT', () => {
  it('builds a CONNECT and splits CONNACK/SUBACK packets', () => {
    const connect = connectPacket('scanward-probe-1');
    expect(parsePackets(connect)).toEqual([{ type: 0x10, flags: 0, body: connect.subarray(2) }]);
    expect(parsePackets(Buffer.from([0x20, 0x02, 0x00, 0x05, 0x90, 0x03, 0x00, 0x01, 0x00]))).toMatchObject([
      { type: 0x20, body: Buffer.from([0, 5]) },
      { type: 0x90 },
    ]);
    expect(parsePackets(Buffer.from([0x20, 0x02, 0x00]))).toEqual([]);
  });
});

describe('MongoDB', () => {
  it('round-trips BSON command documents', () => {
    const document = decodeDocument(encodeDocument({ hello: 1, $db: 'admin', nameOnly: true, ratio: 0.5 }));
    expect(document).toEqual({ hello: 1, $db: 'admin', nameOnly: true, ratio: 0.5 });
  });

  it('reads the body document of an OP_MSG reply', () => {
    const reply = opMsg(7, { version: '7.0.5', ok: 1 });
    expect(parseOpMsgReply(reply)).toEqual({ version: '7.0.5', ok: 1 });
    expect(parseOpMsgReply(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'))).toBeUndefined();
  });
});

describe('connect outcomes', () => {
  it('classifies errors: refused is closed, exhaustion is a resource shortage, the rest unreachable', () => {
    expect(classifyError('ECONNREFUSED')).toBe('closed');
    expect(classifyError('EMFILE')).toBe('resource');
    expect(classifyError('EADDRNOTAVAIL')).toBe('resource');
    expect(classifyError('EHOSTUNREACH')).toBe('unreachable');
  });

  it('treats a loopback self-connection as closed, not open', () => {
    expect(isSelfConnect({ address: '127.0.0.1', port: 40000 }, { address: '127.0.0.1', port: 40000 })).toBe(
      true,
    );
    expect(isSelfConnect({ address: '::1', port: 40000 }, { address: '0:0:0:0:0:0:0:1', port: 40000 })).toBe(
      true,
    );
    expect(isSelfConnect({ address: '127.0.0.1', port: 40000 }, { address: '127.0.0.1', port: 40001 })).toBe(
      false,
    );
  });
});

describe('addresses, URLs and evidence', () => {
  it('accepts only literal IP addresses', () => {
    expect(ipFamily('127.0.0.1')).toBe(4);
    expect(ipFamily('::1')).toBe(6);
    expect(() => ipFamily('localhost')).toThrow(TargetAddressError);
  });

  it('builds affected_component URLs with an explicit port, IPv6 in brackets', () => {
    expect(componentUrl({ address: '10.0.0.5', port: 6379, service: 'redis' })).toBe('redis://10.0.0.5:6379');
    expect(componentUrl({ address: '::1', port: 22, service: 'ssh' })).toBe('ssh://[::1]:22');
    expect(componentUrl({ address: '10.0.0.5', port: 9999, service: 'unknown' })).toBe('tcp://10.0.0.5:9999');
  });

  it('renders bytes as readable text', () => {
    expect(renderBytes(Buffer.from('PING\r\n+PONG\r\n'))).toBe('PING\n+PONG\n');
    expect(renderBytes(Buffer.from([0x00, 0x41, 0xff]))).toBe('\\x00A\\xff');
    expect(renderBytes(Buffer.alloc(10, 0x41), 4)).toBe('AAAA…');
  });
});
