/**
 * nuclei's DAST templates (the `fuzzing:` section of an HTTP template) over the web
 * assessment's crawled parameters: the subset compiled here, and its run.
 *
 * Supported: `payloads` (lists, nested lists flattened), `variables` with `rand_int(a, b)`,
 * a `pre-condition` on the method (`method == "GET"`, `method != "OPTIONS"`), fuzzing rules
 * with `part` query, body or request, `type` postfix, prefix, replace or infix, `mode` single
 * or multiple (both run one parameter at a time, so a finding names its parameter), `keys` and
 * `values` filters, and `word`, `regex` and `status` matchers on body, header or all (with
 * `negative`, `condition`, `case-insensitive`, `matchers-condition`). Anything else (DSL or
 * duration matchers, interactsh, analyzers, header, path or cookie parts) leaves the rule or
 * the template out rather than running it differently.
 *
 * Scanward's own rules on top: a match is reported only when the original request does not
 * match, and a second, different payload of the template matches too (or, for a template with
 * one payload, the same payload with fresh random values); one finding per template, page and
 * parameter, folded into the built-in check's finding when the template stands for one.
 */
import type { Attempt, WebAssessment } from './assessment.ts';
import { excerpt } from './assessment.ts';
import { describeParam, paramComponentPath, type AttackTarget, type Param } from './parameters.ts';
import { goRegExp, type FuzzRule, type FuzzTemplate } from '../fuzzing-template.ts';

export {
  compileFuzzTemplate,
  UnsupportedFuzzing,
  type FuzzMatcher,
  type FuzzRule,
  type FuzzTemplate,
} from '../fuzzing-template.ts';

/** Payload values tried per rule and parameter (nuclei's long traversal lists end in rare encodings). */
export const MAX_VALUES_PER_RULE = 24;

const rand = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min + 1));

function expand(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([\w-]+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Fresh values of the template's variables (rand_int drawn per request). */
function drawVariables(template: FuzzTemplate): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(template.variables)) {
    const m = /rand_int\((\d+),\s*(\d+)\)/.exec(value);
    out[name] = m ? String(rand(Number(m[1]), Number(m[2]))) : value;
  }
  return out;
}

/** Every concrete fuzz value of a rule: each payload value put in each fuzz string, variables drawn. */
function fuzzValues(
  template: FuzzTemplate,
  rule: FuzzRule,
): Array<{ value: string; context: Record<string, string> }> {
  const out: Array<{ value: string; context: Record<string, string> }> = [];
  for (const fuzz of rule.fuzz) {
    const names = [...fuzz.matchAll(/\{\{\s*([\w-]+)\s*\}\}/g)]
      .map((m) => m[1]!)
      .filter((n) => template.payloads[n]);
    const name = names[0];
    const list = name ? template.payloads[name]! : [''];
    for (const item of list) {
      const vars = drawVariables(template);
      const payloadValue = expand(item, vars);
      const context = { ...vars, ...(name ? { [name]: payloadValue } : {}) };
      out.push({ value: expand(fuzz, context), context });
    }
  }
  return out;
}

function place(rule: FuzzRule, param: Param, original: string, fuzz: string): string | undefined {
  if (rule.part === 'query' && param.location !== 'query') return undefined;
  if (rule.part === 'body' && param.location === 'query') return undefined;
  if (rule.keys && !rule.keys.includes(param.name.toLowerCase())) return undefined;
  if (rule.values && !rule.values.some((v) => goRegExp(v, false).test(original))) return undefined;
  switch (rule.type) {
    case 'postfix':
      return `${original}${fuzz}`;
    case 'prefix':
      return `${fuzz}${original}`;
    case 'infix': {
      const half = Math.floor(original.length / 2);
      return `${original.slice(0, half)}${fuzz}${original.slice(half)}`;
    }
    default:
      return fuzz;
  }
}

function matches(
  template: FuzzTemplate,
  attempt: Attempt,
  context: Record<string, string>,
): number | undefined {
  const response = attempt.exchange.response;
  if (!response) return undefined;
  let index = 0;
  const results = template.matchers.map((m) => {
    const text =
      m.part === 'header'
        ? response.head
        : m.part === 'all'
          ? `${response.head}\r\n\r\n${response.body}`
          : response.body;
    let hits: boolean[];
    if (m.type === 'status') hits = [(m.status ?? []).includes(response.status)];
    else if (m.type === 'word') {
      hits = (m.words ?? []).map((w) => {
        const word = expand(w, context);
        const at = m.caseInsensitive ? text.toLowerCase().indexOf(word.toLowerCase()) : text.indexOf(word);
        if (at >= 0 && m.part !== 'header') index = at;
        return at >= 0;
      });
    } else {
      hits = (m.regex ?? []).map((r) => {
        const at = text.search(goRegExp(expand(r, context), m.caseInsensitive === true));
        if (at >= 0 && m.part !== 'header') index = at;
        return at >= 0;
      });
    }
    const hit = m.condition === 'and' ? hits.every(Boolean) : hits.some(Boolean);
    return m.negative ? !hit : hit;
  });
  const ok = template.matchersCondition === 'and' ? results.every(Boolean) : results.some(Boolean);
  return ok ? index : undefined;
}

export interface FuzzFinding {
  template: FuzzTemplate;
  path: string;
  description: string;
  evidence: { request: string; response: string };
}

/** Runs `template` on one parameter: at most one finding, confirmed as the header says. */
export async function runFuzzTemplate(
  a: WebAssessment,
  template: FuzzTemplate,
  target: AttackTarget,
  param: Param,
): Promise<FuzzFinding | undefined> {
  if (template.methods?.allow && !template.methods.allow.includes(target.method)) return undefined;
  if (template.methods?.deny?.includes(target.method)) return undefined;
  if (await a.slow(target)) return undefined;
  for (const rule of template.rules) {
    const values = fuzzValues(template, rule).slice(0, MAX_VALUES_PER_RULE);
    const first = values[0];
    if (!first || place(rule, param, param.value, first.value) === undefined) continue;
    const original = await a.original(target);
    for (let i = 0; i < values.length; i++) {
      const { value, context } = values[i]!;
      const sent = place(rule, param, param.value, value)!;
      const attempt = await a.attempt(target, param, sent, { follow: false });
      const index = matches(template, attempt, context);
      if (index === undefined) continue;
      // The original request must not match (with the same context), and a second, different payload must.
      if (matches(template, { ...original, exchange: original.exchange }, context) !== undefined)
        return undefined;
      const others =
        values.length > 1 ? [...values.slice(i + 1), ...values.slice(0, i)] : fuzzValues(template, rule);
      let confirmed: string | undefined;
      for (const other of others.slice(0, 8)) {
        if (other.value === value && values.length > 1) continue;
        const second = await a.attempt(target, param, place(rule, param, param.value, other.value)!, {
          follow: false,
        });
        if (matches(template, second, other.context) !== undefined) {
          confirmed = other.value;
          break;
        }
      }
      if (confirmed === undefined) return undefined;
      const response = attempt.exchange.response!;
      return {
        template,
        path: paramComponentPath(target, param),
        description:
          `${template.name} (nuclei template \`${template.id}\`): ${describeParam(target, param)} sent as \`${sent}\` matched the ` +
          `template's matchers, the original request did not, and a second payload (\`${confirmed}\`) matched too. ${template.description}`,
        evidence: { request: attempt.exchange.sent, response: excerpt(a.client, response, index) },
      };
    }
  }
  return undefined;
}
