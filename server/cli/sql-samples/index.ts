import type { RepositoryEntry } from '../sql-generator.ts';
import { assetsSamples } from './assets.ts';
import { authSamples } from './auth.ts';
import { controlsSamples } from './controls.ts';
import { eventsSamples } from './events.ts';
import { findingsSamples } from './findings.ts';
import { identitySamples } from './identity.ts';
import { notificationsSamples } from './notifications.ts';
import { ratelimitSamples } from './ratelimit.ts';
import { remediationSamples } from './remediation.ts';
import { scansSamples } from './scans.ts';
import { webhooksSamples } from './webhooks.ts';

/**
 * The samples of every repository module, one file per domain folder (`npm run sql`,
 * docs/architecture.md, "The queries folder"). A new repository function gets its sample
 * arguments in the file of its folder; a new folder's file is listed here.
 */
export const REPOSITORY_SAMPLES: readonly RepositoryEntry[] = [
  ...assetsSamples,
  ...authSamples,
  ...controlsSamples,
  ...eventsSamples,
  ...findingsSamples,
  ...identitySamples,
  ...notificationsSamples,
  ...ratelimitSamples,
  ...remediationSamples,
  ...scansSamples,
  ...webhooksSamples,
];
