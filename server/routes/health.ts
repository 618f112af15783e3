import { defineRoute } from '../http/contract.ts';
import { HealthRecord } from '../schemas/health.ts';

const DB_CHECK_TIMEOUT_MS = 2000;

export const getHealth = defineRoute({
  method: 'get',
  path: '/api/health',
  operationId: 'getHealth',
  summary: 'Service health',
  description: 'Answers 200 when the database answers, 503 when it does not. Needs no credentials.',
  tags: ['Health'],
  access: { public: true },
  responses: {
    200: { description: 'The service and its database are up', schema: HealthRecord },
    503: { description: 'The database does not answer', schema: HealthRecord },
  },
  handler: async ({ services }) => {
    let healthy = true;
    try {
      await Promise.race([
        services.db.raw('select 1'),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), DB_CHECK_TIMEOUT_MS).unref(),
        ),
      ]);
    } catch {
      healthy = false;
    }
    return {
      status: healthy ? 200 : 503,
      body: {
        status: healthy ? 'healthy' : 'unhealthy',
        version: services.version,
        timestamp: new Date().toISOString(),
      },
    };
  },
});

export const healthRoutes = [getHealth];
