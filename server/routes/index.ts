import type { AnyRoute } from '../http/contract.ts';
import { healthRoutes } from './health.ts';
import { authRoutes } from './auth.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every route the API serves, in one list: mounted by the app, documented by /openapi.json. */
export const allRoutes: AnyRoute[] = [...healthRoutes, ...authRoutes, ...apiKeyRoutes, ...webhookRoutes];
