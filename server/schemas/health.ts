import { z } from 'zod';
import { Timestamp } from './common.ts';

export const HealthRecord = z
  .object({
    status: z.enum(['healthy', 'unhealthy']),
    version: z.string(),
    timestamp: Timestamp,
  })
  .meta({ id: 'Health' });
