import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { KeyMaterial } from '../services.ts';
import { findSetting, insertSettingUnlessPresent } from './settings.repository.ts';

/** The service's secrets: an interface of services.ts, so that Services names no domain. */
export type { KeyMaterial };

/**
 * A secret from configuration, or else one generated once and kept in the
 * database, so every process sharing the database agrees on it. The insert is
 * race-free: whichever process inserts first wins and the others read its value.
 */
async function persistedSecret(db: Db, key: string, generate: () => string): Promise<string> {
  await insertSettingUnlessPresent(db, key, generate());
  const value = await findSetting(db, key);
  if (value === undefined) throw new Error(`the setting ${key} was not stored`);
  return value;
}

export async function loadKeyMaterial(db: Db, config: Config, logger: Logger): Promise<KeyMaterial> {
  const jwt =
    config.jwtSecret ??
    (await persistedSecret(db, 'jwt_secret', () => randomBytes(48).toString('base64url')));
  let encryption = config.encryptionKey;
  if (!encryption) {
    encryption = await persistedSecret(db, 'encryption_key', () => randomBytes(32).toString('base64'));
    logger.warn(
      'SCANWARD_ENCRYPTION_KEY is not set: secrets at rest are encrypted with a key kept in the database itself. ' +
        'Set SCANWARD_ENCRYPTION_KEY (32 bytes, base64) so a copy of the database alone cannot reveal them.',
    );
  }
  return { jwtSecret: new TextEncoder().encode(jwt), encryptionKey: Buffer.from(encryption, 'base64') };
}

/** Encrypts a secret for storage: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function openSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
