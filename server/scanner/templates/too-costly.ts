/**
 * A template whose DSL went past the evaluation bounds (dsl.ts) is reported once per scan, as
 * the engine reports other template problems: a line in the scan's notes, which the scan
 * record keeps, and a warning in the log. Its matcher counted as "no match" and the template
 * covers nothing on that service (its earlier findings stay open).
 */
import type { PhaseContext } from '../types.ts';
import type { DslTooCostly } from './dsl.ts';
import { requestMatches, type ResponseView } from './matchers.ts';
import type { CompiledRequest } from './schema.ts';

const prefix = (templateId: string): string => `templates: ${templateId} too costly`;

/** The note a too-costly template leaves in the scan (once). */
export function tooCostlyNote(templateId: string, reason: DslTooCostly): string {
  return `${prefix(templateId)} (${reason.message}): its DSL matcher counted as no match`;
}

/** Reports the template in the scan's notes and the log, unless this scan already has. */
export function reportTooCostly(ctx: PhaseContext, templateId: string, reason: DslTooCostly): void {
  const notes = ctx.state.notes;
  // The notes are the scan's own record (saved with each phase), so a resumed scan remembers too.
  if (notes.some((n) => n.startsWith(`${prefix(templateId)} (`))) return;
  notes.push(tooCostlyNote(templateId, reason));
  ctx.log.warn(
    { template: templateId, reason: reason.message },
    'template too costly: its DSL evaluation was stopped at the bounds',
  );
}

/**
 * A request block's verdict on one answer, reporting the template when its DSL was too costly;
 * `decided` is false then (the template must not count as coverage).
 */
export async function judgeAnswer(
  ctx: PhaseContext,
  templateId: string,
  request: Pick<CompiledRequest, 'matchers' | 'matchersCondition'>,
  view: ResponseView,
): Promise<{ matched: boolean; decided: boolean }> {
  const matched = await requestMatches(request, view);
  if (!view.tooCostly) return { matched, decided: true };
  reportTooCostly(ctx, templateId, view.tooCostly);
  return { matched, decided: false };
}
