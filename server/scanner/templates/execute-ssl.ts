/**
 * Runs ssl templates (`ssl:`, ssl.ts) against one TLS service. Each block is one handshake
 * through `connectService` (the scan's scope guard, the literal approved address; SNI the scan
 * target when it is a name), pinned to the block's protocol versions, old protocols and weak
 * ciphers allowed (`@SECLEVEL=0`) so that what a server still accepts can be seen; handshakes
 * with the same versions are made once per service and run. A refused handshake is an answer
 * (nothing to match); `ssl30` is never attempted (Node has no SSLv3).
 *
 * The fields (SSL_FIELDS) are tlsx's, as nuclei exposes them: `tls_version` `tls10`…`tls13`,
 * `cipher` the IANA name (`TLS_RSA_WITH_AES_128_CBC_SHA`), `expired`, `self_signed` (issuer and
 * subject are the same name, or OpenSSL says so), `mismatched` (the certificate does not name
 * the scan target), `untrusted` (the chain does not verify against Node's CA bundle),
 * `not_before`/`not_after` (RFC 3339), distinguished names as `CN=…,OU=…,O=…,L=…,ST=…,C=…`.
 */
import { checkServerIdentity, type PeerCertificate, type TLSSocket } from 'node:tls';
import type { ServiceIdentification } from '../net/services.ts';
import { urlHost } from '../net/target-address.ts';
import { connectService, hostTarget, serverName, ServiceConnectError } from '../net/service-connect.ts';
import type { PhaseContext } from '../types.ts';
import type { DslValue } from './dsl.ts';
import { judge, protocolDetection, RawView, runProtocolTemplates, type ProtocolRun } from './protocol-run.ts';
import type { CompiledSslRequest, SslTemplate } from './schema.ts';
import type { SslField } from './ssl.ts';

const VERSION_NAMES: Record<string, string> = {
  TLSv1: 'tls10',
  'TLSv1.1': 'tls11',
  'TLSv1.2': 'tls12',
  'TLSv1.3': 'tls13',
};
const DN_ORDER = ['CN', 'OU', 'O', 'L', 'ST', 'C'];

type Fields = Record<SslField, DslValue>;

const asList = (v: string | string[] | undefined): string[] => (v === undefined ? [] : [v].flat());

/** A distinguished name as Go prints it: `CN=…,OU=…,O=…,L=…,ST=…,C=…`. */
function dn(name: Record<string, string | string[]> | undefined): string {
  if (!name) return '';
  return DN_ORDER.flatMap((key) => asList(name[key]).map((v) => `${key}=${v}`)).join(',');
}

const rfc3339 = (date: string): string => {
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
};

/** The tlsx fields of a completed handshake. */
export function sslFields(
  socket: Pick<TLSSocket, 'getProtocol' | 'getCipher' | 'getPeerCertificate' | 'authorized'> & {
    authorizationError?: unknown;
  },
  where: { host: string; ip: string; port: number; sni: string | undefined },
  now = new Date(),
): Fields {
  const cert = socket.getPeerCertificate() as PeerCertificate | Record<string, never>;
  const has = Object.keys(cert).length > 0;
  const c = cert as PeerCertificate;
  const sans = has
    ? (c.subjectaltname ?? '')
        .split(/,\s*/)
        .filter((s) => s.startsWith('DNS:'))
        .map((s) => s.slice(4))
    : [];
  const subjectCn = has ? asList(c.subject?.CN).join(', ') : '';
  const subjectDn = has ? dn(c.subject as unknown as Record<string, string>) : '';
  const issuerDn = has ? dn(c.issuer as unknown as Record<string, string>) : '';
  const reason = socket.authorizationError as Error | string | null | undefined;
  const error = reason instanceof Error ? reason.message : String(reason ?? '');
  return {
    host: where.host,
    ip: where.ip,
    port: String(where.port),
    probe_status: true,
    sni: where.sni ?? '',
    tls_version: VERSION_NAMES[socket.getProtocol() ?? ''] ?? '',
    cipher: socket.getCipher()?.standardName ?? '',
    expired: has && new Date(c.valid_to).getTime() < now.getTime(),
    self_signed: has && (subjectDn === issuerDn || error.includes('DEPTH_ZERO_SELF_SIGNED_CERT')),
    mismatched: has && checkServerIdentity(where.host, c) !== undefined,
    untrusted: has && !socket.authorized,
    wildcard_certificate: [subjectCn, ...sans].some((n) => n.startsWith('*.')),
    not_before: has ? rfc3339(c.valid_from) : '',
    not_after: has ? rfc3339(c.valid_to) : '',
    subject_dn: subjectDn,
    subject_cn: subjectCn,
    subject_org: has ? asList(c.subject?.O).join(', ') : '',
    subject_an: sans.join(', '),
    issuer_dn: issuerDn,
    issuer_cn: has ? asList(c.issuer?.CN).join(', ') : '',
    issuer_org: has ? asList(c.issuer?.O).join(', ') : '',
    serial: has ? (c.serialNumber.toUpperCase().match(/.{1,2}/g) ?? []).join(':') : '',
    domains: [...new Set([subjectCn, ...sans].filter(Boolean))].join(', '),
  };
}

/** Runs the ssl templates against a TLS service; throws when it could not be reached at all. */
export async function runSslTemplates(
  ctx: PhaseContext,
  service: ServiceIdentification,
  templates: readonly SslTemplate[],
): Promise<ProtocolRun> {
  const target = hostTarget(ctx, service);
  const where = {
    host: target,
    ip: service.address,
    port: service.port,
    sni: serverName(ctx, service),
  };
  const run: ProtocolRun = { detections: [], coverage: [], connections: 0 };
  const handshakes = new Map<string, Promise<Fields | undefined>>();
  let answered = 0;

  /** The fields of a handshake with these versions; undefined when the server refused it. */
  const handshake = (request: CompiledSslRequest): Promise<Fields | undefined> => {
    const key = `${request.minVersion ?? ''}-${request.maxVersion ?? ''}`;
    let pending = handshakes.get(key);
    if (!pending) {
      run.connections++;
      pending = (async () => {
        const socket = (await connectService(ctx, service, {
          tls: {
            minVersion: (request.minVersion ?? 'TLSv1') as 'TLSv1',
            ...(request.maxVersion && { maxVersion: request.maxVersion as 'TLSv1' }),
            ciphers: 'DEFAULT:@SECLEVEL=0',
          },
        }).catch((err: unknown) => {
          // The server refusing these versions is an answer; not reaching it is not.
          if (err instanceof ServiceConnectError && err.stage === 'tls') return undefined;
          throw err;
        })) as TLSSocket | undefined;
        answered++;
        if (!socket) return undefined;
        try {
          return sslFields(socket, where);
        } finally {
          socket.destroy();
        }
      })();
      handshakes.set(key, pending);
    }
    return pending;
  };

  return runProtocolTemplates(
    ctx,
    run,
    { target, service },
    templates,
    (template) => template.requests,
    async (template, request) => {
      if (request.sslv3) return undefined;
      const fields = await handshake(request);
      if (!fields) return undefined;
      const json = JSON.stringify(fields);
      const named = new Map<string, DslValue>(Object.entries(fields));
      const matched =
        request.matchers.length > 0
          ? await judge(
              ctx,
              template.id,
              request,
              new RawView(Buffer.from(json), json, named, template.variables, named),
            )
          : request.extractorFields.some((f) => {
              const v = fields[f as SslField];
              return v !== '' && v !== false && v !== undefined;
            });
      if (!matched) return undefined;
      const versions =
        request.minVersion || request.maxVersion
          ? `${request.minVersion ?? '…'}–${request.maxVersion ?? '…'}`
          : 'default versions';
      return protocolDetection(
        template,
        service,
        target,
        {
          request: `TLS ClientHello to ${urlHost(service.address)}:${service.port} (${where.sni ? `SNI ${where.sni}` : 'no SNI'}), ${versions}`,
          response: JSON.stringify(fields, null, 2),
        },
        'ssl',
      );
    },
    () => answered,
  );
}
