import type { Verdict } from '../core/verdict.ts';

/**
 * The annotations of a run: one per finding that failed the gate (errors for critical and
 * high, warnings below), at most `MAX_ANNOTATIONS`, then one line saying how many more. GitHub
 * shows 10 per step and type anyway; the summary and the SARIF have them all.
 */

export interface Annotation {
  level: 'error' | 'warning';
  message: string;
  title: string;
}

export const MAX_ANNOTATIONS = 10;

export function annotations(verdict: Verdict): Annotation[] {
  if (verdict.kind !== 'completed') return [];
  const { failing } = verdict.gate;
  const shown = failing.slice(0, MAX_ANNOTATIONS);
  const list: Annotation[] = shown.map((f) => ({
    level: f.severity === 'critical' || f.severity === 'high' ? 'error' : 'warning',
    message: `${f.title} on ${f.affected_component} (${f.severity}${f.change && f.change !== 'unchanged' ? `, ${f.change}` : ''}, finding ${f.id})`,
    title: `Scanward: ${f.severity} finding`,
  }));
  const more = failing.length - shown.length;
  if (more > 0) {
    list.push({
      level: 'error',
      message: `…and ${more} more finding(s) failed the gate; see the job summary.`,
      title: 'Scanward',
    });
  }
  return list;
}
