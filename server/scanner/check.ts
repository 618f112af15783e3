import type { FindingCategory } from '../controls/mapping.ts';
import { remediationFor } from '../remediation/remediation.ts';
import type { FindingPriority } from '../schemas/findings.ts';
import type { Severity } from '../scoring/severity.ts';
import type { ServiceRule } from './net/service-rules.ts';
import { componentUrl, type ServiceIdentification } from './net/services.ts';
import { targetOf, type Detection, type PhaseContext } from './types.ts';
import type { RemediationValue } from '../findings/rows.ts';

/** What a check's `detect` is handed (checks/ take it from here, not from types.ts: see .dependency-cruiser.mjs). */
export type { PhaseContext } from './types.ts';

/**
 * A check is a small unit that declares what it needs (a kind of service, a
 * phase, whether it is fast enough for quick scans) and turns one service into
 * zero or more detections. The runner never changes when checks are added.
 * Built-in checks (checks/, each made by `defineCheck`) and the templates' checks
 * (templates/checks.ts) implement it; check-registry.ts lists them all.
 */
export interface Check {
  /** Canonical check id: the finding's `template_id`. */
  id: string;
  /** Upstream template ids this check stands for (e.g. nuclei ids), so one weakness stays one finding. */
  upstreamIds: readonly string[];
  phase: 'vulnerability_scanning' | 'web_analysis' | 'cloud_analysis';
  /** Runs in quick scans too. */
  quick: boolean;
  /** What the check looks for, for the compliance mapping (compliance scans run the checks of their frameworks). */
  category: string;
  cweIds: readonly string[];
  /** Logs in with a default or empty credential: runs only when the scan's `credential_checks` is `defaults`. */
  sendsCredentials?: true;
  /** Sends attack input to a web application (web/): runs only when the scan's `web.active` is true. */
  attacks?: true;
  /** The ports the check targets: every one is in the default port list (check-registry.ts). */
  ports: readonly number[];
  appliesTo(service: ServiceIdentification): boolean;
  run(ctx: PhaseContext, service: ServiceIdentification): Promise<Detection[]>;
}

/**
 * What a finding of a check is, where the check (or one of its variants) says nothing else:
 * stated once, in the manner of a nuclei template's `info` block, and copied into every
 * detection the check builds. The check's table test (test/unit/scanner/checks/registry.test.ts)
 * holds every registered check to it: complete, the vector's rating equal to the severity, the
 * remediation entry written.
 */
export interface CheckMeta<V extends string = never> {
  /** Canonical check id: every finding's `template_id` (`<id>:<instance>` for per-instance checks). */
  id: string;
  /** The finding's title; a detection may add a detail in parentheses (`… (TLS 1.0)`). */
  title: string;
  severity: Severity;
  /** CVSS 3.1 vector; its computed rating is `severity`. */
  cvssVector: string;
  cweIds: readonly string[];
  category: FindingCategory;
  /**
   * The remediation knowledge entry (server/remediation/knowledge/, by id or alias) whose
   * advice, filled with the finding's host and port, every finding carries.
   */
  remediation: string;
  /** What an attacker gains, unless a detection says more precisely. */
  impact: string;
  /** Upstream template ids (nuclei's) that report the same weakness: their findings fold into this check's. */
  upstreamIds?: readonly string[];
  /** The tool the findings name; absent: the tool that identified the service. */
  tool?: string;
  /**
   * Other grades of the same weakness (a port mapper that only lists nodes, a distribution port
   * that accepts connections): each with its own severity and vector (and title, CWEs, id).
   */
  variants?: Record<V, CheckVariant>;
}

export interface CheckVariant {
  /** A check id of its own (`software-outdated` beside `software-end-of-life`). */
  id?: string;
  title?: string;
  severity: Severity;
  cvssVector: string;
  cweIds?: readonly string[];
}

/**
 * A published vulnerability (a KEV record) a check matched: the finding takes the record's
 * identity (the CVE as check id, its title, vector, CWEs) instead of the check's; where the record
 * has no vector or names no CWE, the check's stand, so the finding is complete either way.
 */
export interface Advisory {
  id: string;
  title: string;
  severity: Severity;
  cvssVector: string | null;
  cweIds: readonly string[];
  cveIds: readonly string[];
  kev?: boolean;
}

/** What `detect` found on one service: only what differs from one finding to the next. */
export interface Found<V extends string = never> {
  /** The variant of the check's metadata that applies (absent: the check's own). */
  variant?: V;
  /** Appended to the title in parentheses: `TLS service accepts deprecated protocol versions (TLS 1.0)`. */
  detail?: string;
  /** Appended to the component URL: `https://host:443/.env`. */
  path?: string;
  /** One finding per instance (per product): the check id becomes `<id>:<instance>`. */
  instance?: string;
  description: string;
  /** Absent: the check's `impact`. */
  impact?: string;
  /** The exchange that proves the finding: what was sent, what came back. Both required, neither empty. */
  evidence: { request: string; response: string };
  /** Narrower CWEs, each among the check's (the cookie attributes actually missing). */
  cweIds?: readonly string[];
  priority?: FindingPriority;
  advisory?: Advisory;
  /** Advice particular to this finding (the release that fixes a vendor CVE); absent: the check's entry. */
  remediation?: RemediationValue;
}

/** A check built by `defineCheck`: a `Check`, with the declaration it was built from. */
export interface DeclaredCheck<V extends string = string> extends Check {
  meta: CheckMeta<V>;
  rule: ServiceRule;
  /** The detection `found` on `service` makes: what `run` returns for each thing `detect` found. */
  detection(ctx: PhaseContext, service: ServiceIdentification, found: Found<V>): Detection;
}

export interface CheckDeclaration<V extends string = never> {
  meta: CheckMeta<V>;
  phase: Check['phase'];
  quick: boolean;
  sendsCredentials?: true;
  attacks?: true;
  /** The services the check applies to (net/service-rules.ts): `isHttp`, `isTls`, `isService('redis', [6379])`. */
  appliesTo: ServiceRule;
  /** Ports the check reaches beyond its rule's (Erlang's distribution port). */
  ports?: readonly number[];
  detect(ctx: PhaseContext, service: ServiceIdentification): Promise<Found<V>[]>;
}

/** A detection without the exchange that proves it is a bug in the check, never a finding. */
export class MissingEvidenceError extends Error {
  constructor(checkId: string) {
    super(`check ${checkId} built a detection without evidence (request and response are both required)`);
    this.name = 'MissingEvidenceError';
  }
}

/**
 * A built-in check from its declaration. Every detection it makes is filled from `meta`
 * (id, title, severity, vector, CWEs, category, remediation, upstream ids), from the variant
 * `detect` names, or from an advisory, so no check restates them; the detection's target,
 * component and port come from the service.
 */
export function defineCheck<V extends string = never>(declaration: CheckDeclaration<V>): DeclaredCheck<V> {
  const { meta } = declaration;
  const detection = (ctx: PhaseContext, service: ServiceIdentification, found: Found<V>): Detection => {
    const variant: CheckVariant | undefined =
      found.variant === undefined ? undefined : meta.variants?.[found.variant];
    if (found.variant !== undefined && !variant) {
      throw new Error(`check ${meta.id} has no variant ${String(found.variant)}`);
    }
    const { advisory } = found;
    const baseId = variant?.id ?? meta.id;
    const title = advisory?.title ?? variant?.title ?? meta.title;
    const request = found.evidence.request.trim();
    const response = found.evidence.response.trim();
    if (request === '' || response === '') throw new MissingEvidenceError(meta.id);
    const built: Detection = {
      check_id: advisory?.id ?? (found.instance === undefined ? baseId : `${baseId}:${found.instance}`),
      upstream_ids: advisory ? [advisory.id] : [...(meta.upstreamIds ?? [])],
      title: found.detail === undefined ? title : `${title} (${found.detail})`,
      severity: advisory?.severity ?? variant?.severity ?? meta.severity,
      cvss_vector: advisory?.cvssVector ?? variant?.cvssVector ?? meta.cvssVector,
      target: targetOf(ctx.state, service.address),
      affected_component: `${componentUrl(service)}${found.path ?? ''}`,
      port: service.port,
      tool: meta.tool ?? service.tool,
      category: meta.category,
      cve_ids: [...(advisory?.cveIds ?? [])],
      cwe_ids: [
        ...(advisory && advisory.cweIds.length > 0
          ? advisory.cweIds
          : (found.cweIds ?? variant?.cweIds ?? meta.cweIds)),
      ],
      description: found.description,
      impact: found.impact ?? meta.impact,
      evidence: { request: found.evidence.request, response: found.evidence.response, screenshot_url: null },
      ...(advisory?.kev !== undefined && { kev: advisory.kev }),
      ...(found.priority !== undefined && { priority: found.priority }),
    };
    built.remediation = found.remediation ?? remediationFor({ ...built, template_id: meta.remediation });
    if (found.remediation) built.particular_remediation = true;
    return built;
  };
  const variantCwes = Object.values<CheckVariant>(meta.variants ?? ({} as Record<V, CheckVariant>)).flatMap(
    (v) => v.cweIds ?? [],
  );
  return {
    id: meta.id,
    upstreamIds: meta.upstreamIds ?? [],
    phase: declaration.phase,
    quick: declaration.quick,
    category: meta.category,
    cweIds: [...new Set([...meta.cweIds, ...variantCwes])],
    ...(declaration.sendsCredentials && { sendsCredentials: true as const }),
    ...(declaration.attacks && { attacks: true as const }),
    ports: [...new Set([...declaration.appliesTo.ports, ...(declaration.ports ?? [])])].sort((a, b) => a - b),
    appliesTo: (service) => declaration.appliesTo.matches(service),
    run: async (ctx, service) =>
      (await declaration.detect(ctx, service)).map((found) => detection(ctx, service, found)),
    meta,
    rule: declaration.appliesTo,
    detection,
  };
}

/**
 * Records that `checkId` was judged on the service's port. The runner covers each check's own
 * id; a check whose findings carry per-instance ids (`software-end-of-life:php`, a CVE) covers
 * each id it judged, so a finding no longer seen there resolves.
 */
export function coverPort(ctx: PhaseContext, service: ServiceIdentification, checkId: string): void {
  ctx.state.coverage.push({
    target: targetOf(ctx.state, service.address),
    check_id: checkId,
    port: service.port,
  });
}
