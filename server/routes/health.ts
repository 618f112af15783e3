import type { Knex } from 'knex';
import { defineRoute } from '../http/contract.ts';
import { HealthRecord } from '../schemas/health.ts';

/** A database that takes longer than this to answer `select 1` counts as down. */
const DB_CHECK_TIMEOUT_MS = 2000;

async function databaseAnswers(db: Knex): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), DB_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([db.raw('select 1'), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

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
    const healthy = await databaseAnswers(services.db);
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
