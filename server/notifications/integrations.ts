import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import { AppError, conflict, notFound, validationError } from '../errors.ts';
import type { Principal } from '../policies/principal.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { newId } from '../identity/ids.ts';
import { pageOf } from '../schemas/common.ts';
import { configSchemaOf, SECRET_FIELDS, type IntegrationType } from '../schemas/integrations.ts';
import type { Services } from '../services.ts';
import { checkWebhookUrl } from '../webhooks/url-policy.ts';
import {
  countIntegrations,
  deleteIntegration as deleteIntegrationRow,
  findIntegration,
  insertIntegrationUnlessNameTaken,
  listIntegrations as listIntegrationRows,
  updateIntegration as updateIntegrationRow,
  type IntegrationRow,
} from './integrations.repository.ts';
import { queueMessage } from './outbox.ts';

/**
 * An organization's integrations (docs/integrations.md): admins make, change and remove
 * them (each recorded in the audit trail); the secret settings are sealed and never
 * answered; every address (webhook_url, api_url, base_url) passes the receiver address
 * policy (webhooks/url-policy.ts) when saved and again on every send. Trackers get a
 * receiver secret, shown once, that signs their issue events to
 * `POST /api/v1/integrations/{id}/events`.
 */

export const RECEIVER_PATH = (id: string) => `/api/v1/integrations/${id}/events`;
const ADDRESS_FIELDS = ['webhook_url', 'api_url', 'base_url'] as const;
const isTracker = (type: IntegrationType) => type === 'github' || type === 'jira';

/** A whole integration's settings: the plain ones and the secrets, opened. */
export interface IntegrationSettings {
  id: string;
  orgId: string;
  type: IntegrationType;
  name: string;
  config: Record<string, unknown>;
}

export function settingsOf(key: Buffer, row: IntegrationRow): IntegrationSettings {
  return {
    id: row.id,
    orgId: row.org_id,
    type: row.type,
    name: row.name,
    config: {
      ...(JSON.parse(row.config) as Record<string, unknown>),
      ...(JSON.parse(openSecret(key, row.secrets)) as Record<string, unknown>),
    },
  };
}

export function presentIntegration(row: IntegrationRow, publicUrl: string | undefined) {
  const secrets = SECRET_FIELDS[row.type];
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    config: JSON.parse(row.config) as Record<string, unknown>,
    secrets_set: [...secrets],
    receiver_url: isTracker(row.type)
      ? `${(publicUrl ?? '').replace(/\/+$/, '')}${RECEIVER_PATH(row.id)}`
      : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Validates a type's whole config, naming the field (`config.token`) of the first problem. */
async function validConfig(
  services: Services,
  type: IntegrationType,
  config: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const parsed = configSchemaOf(type).safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.filter((p) => typeof p !== 'number').map(String);
    const field = ['config', ...path].join('.');
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field ${issue.keys.join(', ')}`
        : issue.message.replace(/^Invalid input: /, '');
    throw validationError(field, `${field}: ${message}`);
  }
  const valid = parsed.data as Record<string, unknown>;
  for (const name of ADDRESS_FIELDS) {
    const value = valid[name];
    if (typeof value !== 'string') continue;
    try {
      await checkWebhookUrl(value, services.config.webhookAllowPrivate);
    } catch (err) {
      if (err instanceof AppError) {
        throw validationError(`config.${name}`, err.message.replace(/^url:/, `config.${name}:`));
      }
      throw err;
    }
  }
  return valid;
}

function split(type: IntegrationType, config: Record<string, unknown>) {
  const plain: Record<string, unknown> = {};
  const secret: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) {
    if (SECRET_FIELDS[type].includes(k)) secret[k] = v;
    else plain[k] = v;
  }
  return { plain, secret };
}

const actorOf = (principal: Principal) => ({ id: principal.user.id, email: principal.user.email });

export async function createIntegration(
  services: Services,
  principal: Principal,
  input: { type: IntegrationType; name: string; config: Record<string, unknown> },
  ip: string,
) {
  const config = await validConfig(services, input.type, input.config);
  const { plain, secret } = split(input.type, config);
  const key = services.keys.encryptionKey;
  const receiverSecret = isTracker(input.type) ? randomBytes(32).toString('hex') : null;
  const row = await services.db.transaction(async (trx) => {
    const created = await insertIntegrationUnlessNameTaken(trx, principal.org.id, {
      id: newId('intg'),
      org_id: principal.org.id,
      type: input.type,
      name: input.name,
      config: JSON.stringify(plain),
      secrets: sealSecret(key, JSON.stringify(secret)),
      receiver_secret: receiverSecret ? sealSecret(key, receiverSecret) : null,
      created_by: principal.user.id,
    });
    if (!created) throw conflict(`an integration named ${input.name} already exists`);
    await recordAuditEvent(trx, {
      orgId: principal.org.id,
      action: 'integration.created',
      actor: actorOf(principal),
      ip,
      details: { integration_id: created.id, type: created.type, name: created.name },
    });
    return created;
  });
  return {
    ...presentIntegration(row, services.config.publicUrl),
    receiver_secret: receiverSecret,
    secret: receiverSecret,
  };
}

async function rowOf(db: Db, orgId: string, id: string): Promise<IntegrationRow> {
  const row = await findIntegration(db, orgId, id);
  if (!row) throw notFound('integration');
  return row;
}

export async function getIntegration(services: Services, orgId: string, id: string) {
  return presentIntegration(await rowOf(services.db, orgId, id), services.config.publicUrl);
}

export async function listIntegrations(services: Services, orgId: string, page: number, perPage: number) {
  const total = await countIntegrations(services.db, orgId);
  const rows = await listIntegrationRows(services.db, orgId, {
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  return pageOf(
    rows.map((r) => presentIntegration(r, services.config.publicUrl)),
    total,
    page,
    perPage,
  );
}

export async function updateIntegration(
  services: Services,
  principal: Principal,
  id: string,
  change: { name?: string | undefined; config?: Record<string, unknown> | undefined },
  ip: string,
) {
  const orgId = principal.org.id;
  const key = services.keys.encryptionKey;
  const current = await rowOf(services.db, orgId, id);
  const changes: Parameters<typeof updateIntegrationRow>[3] = { updated_at: new Date() };
  if (change.name !== undefined) changes.name = change.name;
  const changed: string[] = change.name !== undefined ? ['name'] : [];
  if (change.config !== undefined) {
    const merged = { ...settingsOf(key, current).config, ...change.config };
    const config = await validConfig(services, current.type, merged);
    const { plain, secret } = split(current.type, config);
    changes.config = JSON.stringify(plain);
    changes.secrets = sealSecret(key, JSON.stringify(secret));
    changed.push(...Object.keys(change.config).map((k) => `config.${k}`));
  }
  const row = await services.db
    .transaction(async (trx) => {
      const updated = await updateIntegrationRow(trx, orgId, id, changes);
      if (!updated) throw notFound('integration');
      await recordAuditEvent(trx, {
        orgId,
        action: 'integration.updated',
        actor: actorOf(principal),
        ip,
        details: { integration_id: id, type: updated.type, name: updated.name, changed: changed.join(', ') },
      });
      return updated;
    })
    .catch((err: unknown) => {
      if ((err as { code?: unknown }).code === '23505')
        throw conflict(`an integration named ${change.name} already exists`);
      throw err;
    });
  return presentIntegration(row, services.config.publicUrl);
}

export async function deleteIntegration(services: Services, principal: Principal, id: string, ip: string) {
  const orgId = principal.org.id;
  await services.db.transaction(async (trx) => {
    const row = await rowOf(trx, orgId, id);
    await deleteIntegrationRow(trx, orgId, id);
    await recordAuditEvent(trx, {
      orgId,
      action: 'integration.deleted',
      actor: actorOf(principal),
      ip,
      details: { integration_id: id, type: row.type, name: row.name },
    });
  });
  return { id, deleted: true as const };
}

/** Queues a test message (chat, e-mail) or a read of the tracker's project (GitHub, Jira). */
export async function testIntegration(services: Services, orgId: string, id: string) {
  const row = await rowOf(services.db, orgId, id);
  const deliveryId = await queueMessage(services.db, services.keys.encryptionKey, orgId, {
    kind: 'integration.test',
    integrationId: row.id,
    dedupeKey: `test:${id}:${newId('msg')}`,
    summary: `test of ${row.name}`,
    payload: {},
  });
  return { queued: true as const, delivery_id: deliveryId! };
}
