import type { Phase } from '../types.ts';
import { runChecks } from './run-checks.ts';

/** Network service checks: authentication, exposure, known weaknesses of identified services. */
export const vulnerabilityScanning: Phase = {
  name: 'vulnerability_scanning',
  weight: 20,
  run: (ctx) => runChecks(ctx, 'vulnerability_scanning'),
};

/** Checks of HTTP and TLS services. */
export const webAnalysis: Phase = {
  name: 'web_analysis',
  weight: 15,
  run: (ctx) => runChecks(ctx, 'web_analysis'),
};

/** Checks of cloud and container control planes found among the services. */
export const cloudAnalysis: Phase = {
  name: 'cloud_analysis',
  weight: 3,
  run: (ctx) => runChecks(ctx, 'cloud_analysis'),
};
