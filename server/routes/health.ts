import { databaseAnswers } from '../db/session.ts';
import { defineRoute } from '../http/contract.ts';
import { HealthRecord } from '../schemas/health.ts';

/** A database that takes longer than this to answer `select 1` counts as down. */
const DB_CHECK_TIMEOUT_MS = 2000;

const tags = ['Health'];

export const getHealthRoute = defineRoute({
  method: 'get',
  path: '/api/health',
  operationId: 'getHealth',
  summary: 'Service health',
  description: 'Answers 200 when the database answers, 503 when it does not. Needs no credentials.',
  tags,
  access: { public: true },
  responses: {
    200: { description: 'The service and its database are up', schema: HealthRecord },
    503: { description: 'The database does not answer', schema: HealthRecord },
  },
  handler: async ({ services }) => {
    const healthy = await databaseAnswers(services.db, DB_CHECK_TIMEOUT_MS);
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

export const healthRoutes = [getHealthRoute];
