/**
 * What the loading worker (load-worker.mjs) asks of the compiler for a file its cache does not
 * know: the template compiled and serialized (V8's structured clone, which keeps RegExps, Maps
 * and Buffers), with the id and protocol the worker needs to de-duplicate, or why it is skipped.
 */
import { serialize } from 'node:v8';
import { UnsupportedTemplate } from './loader.ts';
import { compileTemplateFile, kindOf } from './template-set.ts';

export type CompileOutcome =
  { id: string; protocol: 'http' | 'network' | 'ssl' | 'fuzzing'; bytes: Buffer } | { skip: string };

export function compileOutcome(text: string, file: string): CompileOutcome {
  try {
    const template = compileTemplateFile(text, file);
    return { id: template.id, protocol: kindOf(template), bytes: serialize(template) };
  } catch (err) {
    return { skip: err instanceof UnsupportedTemplate ? err.reason : 'invalid' };
  }
}
