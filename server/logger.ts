import { pino, type Logger } from 'pino';

/**
 * JSON logs, one line per event. Secrets never reach a log line: requests are
 * logged by method, route and status only, and anything that looks like a
 * credential is redacted in case a future log call carries it by mistake.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'scanward' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        '*.password',
        '*.secret',
        '*.token',
        '*.access_token',
        '*.key',
        '*.authorization',
        '*.headers.authorization',
        '*.headers["x-api-key"]',
        '*.mfa_code',
      ],
      censor: '[redacted]',
    },
  });
}
