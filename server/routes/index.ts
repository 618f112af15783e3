import type { AnyRoute } from '../http/contract.ts';
import { integrationRoutes } from './integrations.ts';
import { notificationRoutes } from './notifications.ts';
import { passwordResetRoutes } from './password-reset.ts';
import { findingTicketRoutes } from './finding-tickets.ts';
import { notificationPreferenceRoutes } from './notification-preferences.ts';
import type { TagDescription } from '../http/openapi.ts';
import { healthRoutes } from './health.ts';
import { scanRoutes } from './scans.ts';
import { importRoutes } from './imports.ts';
import { findingRoutes } from './findings.ts';
import { assetRoutes } from './assets.ts';
import { authRoutes } from './auth.ts';
import { consoleSessionRoutes } from './console-session.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { webhookRoutes } from './webhooks.ts';
import { controlRoutes } from './controls.ts';
import { aiAnalysisRoutes } from './ai-analysis.ts';
import { playbookRoutes } from './playbooks.ts';
import { userRoutes } from './users.ts';
import { auditEventRoutes } from './audit-events.ts';
import { eventRoutes } from './events.ts';
import { settingsRoutes } from './settings.ts';
import { oidcRoutes } from './oidc.ts';
import { ciTrustRoutes } from './ci-trust.ts';
import { overviewRoutes } from './overview.ts';

/** Every route the API serves, in one list: mounted by the app, documented by /openapi.json. */
export const allRoutes: AnyRoute[] = [
  ...healthRoutes,
  ...scanRoutes,
  ...importRoutes,
  ...findingRoutes,
  ...assetRoutes,
  ...authRoutes,
  ...consoleSessionRoutes,
  ...oidcRoutes,
  ...apiKeyRoutes,
  ...webhookRoutes,
  ...controlRoutes,
  ...aiAnalysisRoutes,
  ...playbookRoutes,
  ...userRoutes,
  ...auditEventRoutes,
  ...eventRoutes,
  ...settingsRoutes,
  ...ciTrustRoutes,
  ...overviewRoutes,
  ...integrationRoutes,
  ...notificationRoutes,
  ...passwordResetRoutes,
  ...findingTicketRoutes,
  ...notificationPreferenceRoutes,
];

/** What each tag of `allRoutes` groups, in the order the documentation lists them. */
export const routeTags: TagDescription[] = [
  { name: 'Health', description: 'Whether the service and its database answer; no credentials needed.' },
  {
    name: 'Scans',
    description:
      'Scans of a target inside the scan scope: start one, list and follow them, cancel, read a ' +
      "scan's findings; the organization's monthly scan quota.",
  },
  {
    name: 'Schedules',
    description:
      'Recurring scans, daily, weekly or monthly at a local hour (professional and enterprise plans).',
  },
  {
    name: 'Findings',
    description:
      'Vulnerabilities across scans: list, filter, triage (status, assignee, priority, notes, comments), ' +
      'bulk updates, statistics, export, AI analysis and remediation playbooks.',
  },
  {
    name: 'Assets',
    description:
      'The inventory of hosts the completed scans and imports saw: their names, services (product, version, ' +
      'TLS, end of life) and open findings by severity.',
  },
  {
    name: 'Authentication',
    description:
      "Log-in for access tokens, refresh, sessions, MFA enrolment, and the web console's cookie session.",
  },
  {
    name: 'API keys',
    description:
      'Keys for automation, limited to their permissions (professional and enterprise plans); ' +
      "managed by the organization's admins with a bearer token.",
  },
  {
    name: 'CI trust',
    description:
      'Keyless CI sign-in: trust policies let CI jobs (GitHub Actions, GitLab) exchange their own ' +
      'OpenID Connect ID token for a short-lived access token instead of storing an API key; managed ' +
      'by admins with a bearer token.',
  },
  {
    name: 'Webhooks',
    description:
      'Signed deliveries of scan and vulnerability events (Standard Webhooks) to public receivers, ' +
      'with the delivery log; managed by admins.',
  },
  {
    name: 'Integrations',
    description:
      'Slack, Teams, GitHub, Jira and e-mail integrations, the notification rules that send them events, ' +
      'tickets for findings kept in step both ways, and the notification deliveries with their dead letters; ' +
      'managed by admins.',
  },
  {
    name: 'Controls',
    description:
      'Compliance controls (SOC 2, PCI DSS, ISO 27001), their status from the findings mapped to them, ' +
      'and evidence.',
  },
  {
    name: 'People',
    description:
      "The organization's users and their roles (admin, member, viewer): invite, change a role, disable, " +
      'enable, delete; admins only.',
  },
  {
    name: 'Audit',
    description: 'Who did what to whom: people changes, log-ins and failed log-ins; admins only.',
  },
  {
    name: 'Events',
    description:
      "A live stream (server-sent events) of the organization's scan progress and finding changes, " +
      'resumable with Last-Event-ID; one request against the rate limit however long it stays open.',
  },
];
