import { z } from 'zod';

const Days = z
  .number({ error: 'must be a whole number of days' })
  .int({ error: 'must be a whole number of days' })
  .min(1, { error: 'must be at least 1' })
  .max(3650, { error: 'must be at most 3650' });

/** Days from detection to the due date, by severity (informational findings have no due date). */
export const SlaPolicy = z
  .object({
    critical: Days.meta({ example: 7 }),
    high: Days.meta({ example: 30 }),
    medium: Days.meta({ example: 90 }),
    low: Days.meta({ example: 180 }),
  })
  .strict()
  .meta({ id: 'SlaPolicy' });
export type SlaPolicy = z.infer<typeof SlaPolicy>;
