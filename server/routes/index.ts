import type { AnyRoute } from '../http/contract.ts';
import { healthRoutes } from './health.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every route the API serves, in one list: mounted by the app, documented by /openapi.json. */
export const allRoutes: AnyRoute[] = [...healthRoutes, ...webhookRoutes];
