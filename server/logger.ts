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

/**
 * JSON logs, one line per event. Secrets never reach a log line: requests are
 * logged by method, route and status only (no query string, headers or body),
 * and anything that looks like a credential is redacted in case a future log
 * call carries it by mistake.
 *
 * `destination` defaults to stdout; tests pass a stream to read the lines back.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'scanward' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
