import { z } from 'zod';
import { Timestamp } from './common.ts';

export const WebhookEventName = z.enum([
  'scan.started',
  'scan.completed',
  'scan.failed',
  'vulnerability.critical',
  'vulnerability.found',
]);

const B64 = '[A-Za-z0-9+/]';

/**
 * `whsec_` + canonical base64 of 24 to 64 bytes: 8 whole quads (24 bytes), 9 to
 * 21 quads with any padding (25–63 bytes), or 22 quads ending in `==` (64 bytes).
 */
export const WEBHOOK_SECRET_PATTERN = new RegExp(
  `^whsec_(?:(?:${B64}{4}){8}|(?:${B64}{4}){8,20}(?:${B64}{4}|${B64}{3}=|${B64}{2}==)|(?:${B64}{4}){21}${B64}{2}==)$`,
);

export const CreateWebhookRequest = z
  .object({
    url: z.string().max(2048).meta({
      description: 'Receiver address (http or https)',
      example: 'https://hooks.example.com/scanward',
    }),
    events: z
      .array(WebhookEventName, { error: 'must be a list of event names' })
      .min(1, { error: 'must name at least one event' })
      .max(WebhookEventName.options.length, {
        error: `must name at most ${WebhookEventName.options.length} events`,
      })
      .refine((e) => new Set(e).size === e.length, { error: 'must not repeat an event' })
      .meta({ uniqueItems: true }),
    secret: z
      .string()
      .regex(WEBHOOK_SECRET_PATTERN, { error: 'must be whsec_ followed by base64 of 24 to 64 bytes' })
      .optional()
      .meta({ description: 'Signing secret: `whsec_` + base64 of 24–64 bytes. Generated when omitted.' }),
  })
  .meta({ id: 'CreateWebhookRequest' });

export const Webhook = z
  .object({
    id: z.string().meta({ example: 'wh_3k2j4h5g6f7d8s9a0p1o2i3u' }),
    url: z.string(),
    events: z.array(WebhookEventName),
    active: z.boolean(),
    disabled_reason: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'Webhook' });

export const CreatedWebhook = Webhook.extend({
  secret: z.string().meta({ description: 'The signing secret; shown only in this response' }),
}).meta({ id: 'CreatedWebhook' });

export const WebhookDelivery = z
  .object({
    id: z.string().meta({
      description: 'Delivery id, sent as `webhook-id` on every attempt',
      example: 'whd_0a1b2c3d4e5f6g7h8i9j0k1l',
    }),
    webhook_id: z.string(),
    event: WebhookEventName,
    status: z.enum(['pending', 'succeeded', 'failed']),
    status_code: z.number().int().nullable().meta({ description: 'HTTP status of the last attempt' }),
    attempts: z.number().int(),
    next_retry_at: Timestamp.nullable(),
    response_time_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookDelivery' });
