import type { AnyRoute } from '../http/contract.ts';
import { healthRoutes } from './health.ts';
import { scanRoutes } from './scans.ts';
import { findingRoutes } from './findings.ts';
import { authRoutes } from './auth.ts';
import { consoleSessionRoutes } from './console-session.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { webhookRoutes } from './webhooks.ts';
import { controlRoutes } from './controls.ts';
import { aiAnalysisRoutes } from './ai-analysis.ts';
import { playbookRoutes } from './playbooks.ts';

/** Every route the API serves, in one list: mounted by the app, documented by /openapi.json. */
export const allRoutes: AnyRoute[] = [
  ...healthRoutes,
  ...scanRoutes,
  ...findingRoutes,
  ...authRoutes,
  ...consoleSessionRoutes,
  ...apiKeyRoutes,
  ...webhookRoutes,
  ...controlRoutes,
  ...aiAnalysisRoutes,
  ...playbookRoutes,
];
