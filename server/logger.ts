import { pino, type DestinationStream, type Logger } from 'pino';

/** Log keys that may carry a credential, at the top level or one or two levels down. */
const SECRET_KEYS = [
  'password',
  'secret',
  'token',
  'access_token',
  'key',
  'api_key',
  'authorization',
  'cookie',
  'mfa_code',
];

const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
  '*.headers["x-api-key"]',
  '*.headers["set-cookie"]',
];

/** SQLSTATE: five digits or capital letters (`23505`, `22021`). */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** Fields of a database error that describe where it happened, never what was in it. */
const DATABASE_ERROR_FIELDS = [
  'code',
  'severity',
  'routine',
  'schema',
  'table',
  'column',
  'constraint',
] as const;

/**
 * A database error as PostgreSQL and PGlite raise it (`code` is a SQLSTATE and the
 * server named the severity or the routine).
 */
function isDatabaseError(err: Record<string, unknown>): boolean {
  return typeof err.code === 'string' && SQLSTATE.test(err.code) && ('severity' in err || 'routine' in err);
}

/**
 * The `err` of a log line. A database error is logged by the shape of its query
 * (placeholders only) and its SQLSTATE, where it happened and its stack frames:
 * never its message or `detail`, which quote the values (`Key (key_hash)=(…)`,
 * `invalid input syntax for type …: "…"`), nor the bound parameters. Any other
 * error is logged as pino does, less `bindings` (knex attaches them to a timeout).
 */
export function serializeError(err: unknown): unknown {
  if (!err || typeof err !== 'object') return err;
  const record = err as Record<string, unknown>;
  if (isDatabaseError(record)) {
    const out: Record<string, unknown> = {
      type: typeof record.name === 'string' ? record.name : 'DatabaseError',
      message: `database error ${String(record.code)}`,
    };
    for (const field of DATABASE_ERROR_FIELDS) if (record[field] !== undefined) out[field] = record[field];
    if (typeof record.sql === 'string') out.query = record.sql;
    if (typeof record.stack === 'string') {
      out.stack = record.stack
        .split('\n')
        .filter((line) => line.trimStart().startsWith('at '))
        .join('\n');
    }
    return out;
  }
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  delete out.bindings;
  return out;
}

/**
 * JSON logs, one line per event. Secrets never reach a log line: requests are
 * logged by method, route and status only (no query string, headers or body),
 * anything that looks like a credential is redacted in case a future log
 * call carries it by mistake, and database errors never carry bound values
 * ({@link serializeError}).
 *
 * `destination` defaults to stdout; tests pass a stream to read the lines back.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'scanward' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
