import type { JWTPayload } from 'jose';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database, Engine } from './db/index.ts';

/*
 * The Services interface, and the small interfaces of what it holds. It sits below every
 * domain (and http/): it imports none of them, not even for a type. What builds Services
 * (opening the database, loading the keys, the issuer cache and the parse pool) is
 * runtime.ts, at the top.
 */

/** The service's secrets (auth/keys.ts loads them). */
export interface KeyMaterial {
  /** HS256 signing secret shared by every server process. */
  jwtSecret: Uint8Array;
  /** AES-256-GCM key for secrets the service must read back (TOTP, webhook secrets). */
  encryptionKey: Buffer;
}

/** Verifies CI providers' ID tokens against their issuers' keys (auth/ci-issuers.ts, CiIssuers). */
export interface IdTokenVerifier {
  /**
   * Verifies an ID token of `issuer` for one of `audiences`; throws IdTokenInvalid, or
   * IssuerUnavailable when the issuer's keys cannot be had.
   */
  verify(token: string, issuer: string, audiences: readonly string[], now?: Date): Promise<JWTPayload>;
}

/** A bounded set of worker threads with a queue (imports/parse-off-loop.ts, ParsePool). */
export interface ParseWorkers {
  readonly options: { workers: number; queue: number; heapMb: number; timeoutMs?: number | undefined };
  /** Workers busy now, and reports waiting for one. */
  readonly load: { running: number; waiting: number };
  /** A worker slot, at once or after those queued; 503 when the queue is full. Calling it gives it back. */
  acquire(): Promise<() => void>;
}

/**
 * What request handlers and workers share: configuration, the database and key
 * material. Domain modules are plain functions over these.
 */
export interface Services {
  config: Config;
  /** The root database handle (a pool on PostgreSQL, one connection on PGlite), never a transaction. */
  db: Database['db'];
  engine: Engine;
  logger: Logger;
  keys: KeyMaterial;
  /** The OpenID issuers of CI providers, with their keys cached (keyless CI sign-in; auth/ci-issuers.ts). */
  ciIssuers: IdTokenVerifier;
  /** The report parse workers of this process (imports/parse-off-loop.ts). */
  importParsers: ParseWorkers;
  version: string;
  /**
   * The fetch the OpenID Connect client reaches the issuer with (auth/oidc.ts). Unset: the
   * global fetch, which verifies the issuer's TLS against Node's CA store and
   * NODE_EXTRA_CA_CERTS. Tests hand in one that trusts their test CA.
   */
  oidcFetch?: typeof fetch;
  /** Check every response against its declared schema (tests). */
  validateResponses: boolean;
}
