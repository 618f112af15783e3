import * as counters from '../../ratelimit/rate-counters.repository.ts';
import { repositorySamples } from '../sql-generator.ts';
import { NOW, ORG, WEEK_AGO } from './fixture.ts';

/** Samples of server/ratelimit/. */

export const ratelimitSamples = [
  repositorySamples('server/ratelimit/rate-counters.repository.ts', counters, {
    addToCounters: [[[{ bucket: `org:${ORG}:hour`, window_start: NOW, count: 1, expires_at: NOW }]]],
    lockCounters: [[[{ bucket: `org:${ORG}:hour`, window_start: NOW, count: 0, expires_at: NOW }]]],
    takeFromCounters: [[[{ bucket: `org:${ORG}:hour`, window_start: NOW }]]],
    findCounters: [[[{ bucket: `org:${ORG}:hour`, window_start: NOW }]]],
    deleteExpiredCounters: [[WEEK_AGO]],
  }),
];
