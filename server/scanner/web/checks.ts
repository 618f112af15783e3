/**
 * The attack checks of the web assessment (issue 33), each declared once with `defineCheck`
 * like every built-in check: they run in the `web_analysis` phase on every HTTP service, only
 * when the scan's `web.active` is true (`attacks: true`, check-registry.ts), over every
 * parameter the shared crawl found (assessment.ts), one finding per weakness, page and
 * parameter. docs/web-testing.md lists each check's payloads and proofs.
 */
import { defineCheck, type DeclaredCheck, type Found, type PhaseContext } from '../check.ts';
import type { ServiceIdentification } from '../net/services.ts';
import { isHttp } from '../net/service-rules.ts';
import { assessmentOf, type WebAssessment } from './assessment.ts';
import {
  commandInjection,
  crossSiteRequestForgery,
  crossSiteScripting,
  openRedirect,
  pathTraversal,
  sqlInjection,
  templateInjection,
  type XssResult,
} from './attacks.ts';
import type { AttackTarget, Param } from './parameters.ts';
import { runFuzzTemplate, type FuzzTemplate } from './fuzzing.ts';
import { FUZZING_DEFAULT_SET } from './fuzzing-default-set.ts';

const TOOL = 'scanward-web';
const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';

/** Places of the assessment tried at once by one check (the client's gate bounds the requests). */
const PLACES_AT_ONCE = 6;

async function overPlaces(
  ctx: PhaseContext,
  a: WebAssessment,
  attack: (a: WebAssessment, target: AttackTarget, param: Param) => Promise<Found | undefined>,
): Promise<Found[]> {
  const places = a.places();
  const found: Found[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < places.length && !ctx.signal.aborted) {
      const { target, param } = places[next++]!;
      try {
        const result = await attack(a, target, param);
        if (result) found.push(redacted(a, result));
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        ctx.log.debug(
          { check: 'web', path: target.pathname, param: param.name },
          'web attack attempt failed',
        );
      }
    }
  };
  await Promise.all(Array.from({ length: PLACES_AT_ONCE }, worker));
  return found;
}

/** A finding's text with every secret replaced (a field name can hold the password's letters too). */
function redacted(a: WebAssessment, found: Found): Found {
  return {
    ...found,
    description: a.client.redact(found.description),
    ...(found.detail !== undefined && { detail: a.client.redact(found.detail) }),
    evidence: {
      request: a.client.redact(found.evidence.request),
      response: a.client.redact(found.evidence.response),
    },
  };
}

const perParameter =
  (attack: (a: WebAssessment, target: AttackTarget, param: Param) => Promise<Found | undefined>) =>
  async (ctx: PhaseContext, service: ServiceIdentification): Promise<Found[]> =>
    overPlaces(ctx, await assessmentOf(ctx, service), attack);

export const sqlInjectionCheck = defineCheck({
  meta: {
    id: 'web-sql-injection',
    title: 'SQL injection',
    severity: 'critical',
    cvssVector: CRITICAL,
    cweIds: ['CWE-89'],
    category: 'injection',
    remediation: 'web-sql-injection',
    impact:
      "An attacker reads, changes or deletes any data the application's database account can reach, and often signs in as anyone.",
    upstreamIds: [
      'sqli-error-based',
      'time-based-sqli',
      'mysql-time-based-sqli',
      'postgres-time-based-sqli',
      'mssql-time-based-sqli',
    ],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  attacks: true,
  appliesTo: isHttp,
  detect: perParameter(sqlInjection),
});

export const commandInjectionCheck = defineCheck({
  meta: {
    id: 'web-command-injection',
    title: 'OS command injection',
    severity: 'critical',
    cvssVector: CRITICAL,
    cweIds: ['CWE-78'],
    category: 'injection',
    remediation: 'web-command-injection',
    impact: 'An attacker runs any command on the server with the rights of the web application.',
    upstreamIds: ['unix-command-injection', 'cmdi-time-based-blind', 'blind-oast-polyglots'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  attacks: true,
  appliesTo: isHttp,
  detect: perParameter(commandInjection),
});

export const pathTraversalCheck = defineCheck({
  meta: {
    id: 'web-path-traversal',
    title: 'Path traversal or file inclusion',
    severity: 'high',
    cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    cweIds: ['CWE-22', 'CWE-98'],
    category: 'injection',
    remediation: 'web-path-traversal',
    impact:
      'An attacker reads any file the web server can read (configuration, keys, source code), and with inclusion runs code.',
    upstreamIds: ['linux-lfi-fuzz', 'lfi-keyed', 'windows-lfi-fuzz'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  attacks: true,
  appliesTo: isHttp,
  detect: perParameter(pathTraversal),
});

export const openRedirectCheck = defineCheck({
  meta: {
    id: 'web-open-redirect',
    title: 'Open redirect',
    severity: 'medium',
    cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    cweIds: ['CWE-601'],
    category: 'injection',
    remediation: 'web-open-redirect',
    impact:
      'A link to the trusted site sends its visitors to any site an attacker names: phishing pages and stolen OAuth codes follow.',
    upstreamIds: ['open-redirect', 'open-redirect-bypass'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  attacks: true,
  appliesTo: isHttp,
  detect: perParameter(openRedirect),
});

export const templateInjectionCheck = defineCheck({
  meta: {
    id: 'web-template-injection',
    title: 'Server-side template injection',
    severity: 'critical',
    cvssVector: CRITICAL,
    cweIds: ['CWE-1336'],
    category: 'injection',
    remediation: 'web-template-injection',
    impact:
      'An attacker evaluates template expressions on the server, which in most engines means running code there.',
    upstreamIds: [
      'reflection-ssti',
      'twig-ssti',
      'smarty-ssti',
      'razor-ssti',
      'freemarker-sandbox-bypass-ssti',
    ],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  attacks: true,
  appliesTo: isHttp,
  detect: perParameter(templateInjection),
});

const xssRuns = new WeakMap<WebAssessment, Promise<XssResult[]>>();

/** Both XSS checks share one run: probes everywhere, the crawled pages loaded again, then the payloads. */
function xssOf(ctx: PhaseContext, a: WebAssessment): Promise<XssResult[]> {
  let run = xssRuns.get(a);
  if (!run) {
    run = (async () => {
      await overPlaces(ctx, a, async (assessment, target, param) => {
        await assessment.probe(target, param);
        return undefined;
      });
      const stored = await a.reload();
      const results: XssResult[] = [];
      await overPlaces(ctx, a, async (assessment, target, param) => {
        const result = await crossSiteScripting(assessment, target, param, stored);
        if (result) results.push({ ...result, found: redacted(assessment, result.found) });
        return undefined;
      });
      return results;
    })();
    xssRuns.set(a, run);
  }
  return run;
}

const XSS_META = {
  severity: 'medium' as const,
  cweIds: ['CWE-79'],
  category: 'injection' as const,
  tool: TOOL,
};

export const reflectedXssCheck = defineCheck({
  meta: {
    ...XSS_META,
    id: 'web-xss-reflected',
    title: 'Reflected cross-site scripting',
    cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    remediation: 'web-xss',
    impact:
      "A link an attacker sends runs their script in the victim's session: it reads the page, acts as the user, steals what they type.",
    upstreamIds: ['reflected-xss'],
  },
  phase: 'web_analysis',
  quick: true,
  attacks: true,
  appliesTo: isHttp,
  detect: async (ctx, service) =>
    (await xssOf(ctx, await assessmentOf(ctx, service))).filter((r) => !r.stored).map((r) => r.found),
});

export const storedXssCheck = defineCheck({
  meta: {
    ...XSS_META,
    id: 'web-xss-stored',
    title: 'Stored cross-site scripting',
    cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N',
    remediation: 'web-xss',
    impact:
      'A script an attacker saves runs in the session of everyone who opens the page: it acts as them, up to administrators.',
    upstreamIds: ['stored-xss'],
  },
  phase: 'web_analysis',
  quick: true,
  attacks: true,
  appliesTo: isHttp,
  detect: async (ctx, service) =>
    (await xssOf(ctx, await assessmentOf(ctx, service))).filter((r) => r.stored).map((r) => r.found),
});

export const csrfCheck = defineCheck({
  meta: {
    id: 'web-csrf',
    title: 'Cross-site request forgery: a state-changing form without protection',
    severity: 'medium',
    cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:H/A:N',
    cweIds: ['CWE-352'],
    category: 'injection',
    remediation: 'web-csrf',
    impact:
      'Any site the signed-in user visits submits the form in their name: credentials, e-mail addresses, orders change.',
    upstreamIds: ['csrf-detect'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  attacks: true,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const a = await assessmentOf(ctx, service);
    const cookies = new Map(
      [...a.client.sameSite].filter(([name]) => a.client.cookieHeader().includes(`${name}=`)),
    );
    // A session given as a Cookie header: its SameSite is unknown unless the application set it again.
    const auth = ctx.scan.web?.authentication;
    if (auth?.type === 'headers') {
      for (const [header, value] of Object.entries(auth.headers)) {
        if (header.toLowerCase() !== 'cookie') continue;
        for (const part of value.split(/;\s*/)) {
          const name = part.split('=')[0]?.trim();
          if (name && !cookies.has(name)) cookies.set(name, undefined);
        }
      }
    }
    const found: Found[] = [];
    for (const target of a.surface.targets.filter((t) => t.form)) {
      try {
        const result = await crossSiteRequestForgery(a, target, cookies);
        if (result) found.push(redacted(a, result));
      } catch (err) {
        if (ctx.signal.aborted) throw err;
      }
    }
    return found;
  },
});

/** The built-in attack checks (the fuzzing templates' check comes after them). */
const builtInAttackChecks: DeclaredCheck[] = [
  sqlInjectionCheck,
  reflectedXssCheck,
  storedXssCheck,
  commandInjectionCheck,
  pathTraversalCheck,
  openRedirectCheck,
  csrfCheck,
  templateInjectionCheck,
];

// ---------------------------------------------------------------------------------------
// nuclei fuzzing templates

/** A vector per severity for templates that stand for no built-in check. */
const VECTOR_BY_SEVERITY: Record<string, string> = {
  critical: CRITICAL,
  high: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
  medium: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
  low: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
};

const defaultFuzzingTemplates: FuzzTemplate[] = FUZZING_DEFAULT_SET.templates.map(
  (t) => t.template as unknown as FuzzTemplate,
);

/**
 * The operator's own fuzzing templates for a scan: those of `SCANWARD_TEMPLATES_DIR` or the
 * installed corpus, compiled by the template loader with the same compiler as the default set
 * (templates/checks.ts `scanFuzzingTemplates`, handed in by check-registry.ts, since scanner/web
 * and scanner/templates never import each other), with the ones skipped and why.
 */
export type OperatorFuzzingTemplates = (ctx: PhaseContext) => Promise<
  | {
      directory: string;
      templates: ReadonlyArray<{ id: string; file: string; template: FuzzTemplate }>;
      skipped: ReadonlyArray<readonly [string, string]>;
    }
  | undefined
>;

/** Skipped fuzzing templates named one by one in a scan's notes, at most. */
const SKIPPED_NAMED = 10;

/** Scans whose notes already tell about the operator's fuzzing templates. */
const noted = new WeakSet<object>();

/**
 * The fuzzing templates a scan runs: the default set, then the operator's (a template of theirs
 * with the id of a default one replaces it). The first call of a scan notes how many of the
 * operator's were loaded and which were skipped, with the reason.
 */
async function scanFuzzingTemplates(
  ctx: PhaseContext,
  operator: OperatorFuzzingTemplates | undefined,
): Promise<FuzzTemplate[]> {
  let theirs: Awaited<ReturnType<OperatorFuzzingTemplates>>;
  try {
    theirs = operator ? await operator(ctx) : undefined;
  } catch (err) {
    // The template check reports a tree that cannot be loaded; the default set still runs.
    if (ctx.signal.aborted) throw err;
    ctx.log.warn({ err }, 'operator fuzzing templates could not be loaded');
    return defaultFuzzingTemplates;
  }
  if (!theirs) return defaultFuzzingTemplates;
  if (!noted.has(ctx.state)) {
    noted.add(ctx.state);
    const named = theirs.skipped
      .slice(0, SKIPPED_NAMED)
      .map(([file, reason]) => `${file}: ${reason}`)
      .join('; ');
    const more =
      theirs.skipped.length > SKIPPED_NAMED ? `; and ${theirs.skipped.length - SKIPPED_NAMED} more` : '';
    ctx.state.notes.push(
      `fuzzing templates: ${theirs.templates.length} loaded from ${theirs.directory}` +
        (theirs.skipped.length > 0
          ? `, ${theirs.skipped.length} skipped as unsupported (${named}${more})`
          : ''),
    );
  }
  const own = new Set(theirs.templates.map((t) => t.id));
  return [
    ...defaultFuzzingTemplates.filter((t) => !own.has(t.id)),
    ...theirs.templates.map((t) => t.template),
  ];
}

/** The check that runs nuclei fuzzing templates: the default set, and the operator's when handed in. */
export function fuzzingTemplatesCheckWith(operator?: OperatorFuzzingTemplates): DeclaredCheck {
  return defineCheck({
    meta: {
      id: 'web-fuzzing-template',
      title: 'Weakness found by a nuclei fuzzing template',
      severity: 'medium',
      cvssVector: VECTOR_BY_SEVERITY.medium!,
      cweIds: ['CWE-20'],
      category: 'injection',
      remediation: 'web-fuzzing-template',
      impact: 'Request input reaches the application unvalidated in a way the template proves exploitable.',
      tool: TOOL,
    },
    phase: 'web_analysis',
    quick: true,
    attacks: true,
    appliesTo: isHttp,
    detect: async (ctx, service) => {
      const templates = await scanFuzzingTemplates(ctx, operator);
      const a = await assessmentOf(ctx, service);
      const found: Found[] = [];
      for (const template of templates) {
        const builtIn = builtInAttackChecks.find((check) => check.upstreamIds.includes(template.id));
        found.push(
          ...(await overPlaces(ctx, a, async (assessment, target, param) => {
            const hit = await runFuzzTemplate(assessment, template, target, param);
            if (!hit) return undefined;
            const meta = builtIn?.meta;
            return {
              path: hit.path,
              detail: param.name,
              description: hit.description,
              evidence: hit.evidence,
              // A template that stands for a built-in check makes that check's finding (one weakness, one finding).
              advisory: {
                id: meta?.id ?? template.id,
                title: meta?.title ?? template.name,
                severity: meta?.severity ?? template.severity,
                cvssVector: meta?.cvssVector ?? VECTOR_BY_SEVERITY[template.severity] ?? null,
                cweIds: meta?.cweIds ?? template.cweIds,
                cveIds: [],
              },
            };
          })),
        );
      }
      return found;
    },
  });
}

/** The attack checks with the default fuzzing set only (check-registry.ts adds the operator's templates). */
export const fuzzingTemplatesCheck = fuzzingTemplatesCheckWith();

/** Every attack check; `operator` hands in the operator's fuzzing templates (check-registry.ts). */
export function webAttackChecksWith(operator?: OperatorFuzzingTemplates): DeclaredCheck[] {
  return [...builtInAttackChecks, operator ? fuzzingTemplatesCheckWith(operator) : fuzzingTemplatesCheck];
}

export const webAttackChecks: DeclaredCheck[] = webAttackChecksWith();
