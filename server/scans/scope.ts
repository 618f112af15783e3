import { lookup } from 'node:dns/promises';
import type { Config } from '../config.ts';
import { AppError, validationError } from '../errors.ts';
import { addressRange, coveredBy, parseAddress, rangeOf, type IpRange } from './ip-ranges.ts';
import { addressRefusal, refusalReason, type AddressRefusal } from './address-policy.ts';
import { normalizeHostName, parseTarget, type CidrCeiling, type ParsedTarget } from './targets.ts';

/**
 * The scan scope policy (decisions.md, "Running it"). Without
 * SCANWARD_SCAN_ALLOW only public addresses may be scanned; with it, exactly
 * the CIDRs and domain suffixes it lists (its entry `public` meaning the public
 * addresses, the default it replaces), minus SCANWARD_SCAN_DENY. Link-local
 * and cloud metadata addresses are refused unless SCANWARD_SCAN_ALLOW names
 * the exact address. Which address passes is decided once, in
 * address-policy.ts, shared with webhook receivers.
 *
 * Names are judged by the addresses they resolve to, every one of which must
 * pass. A name under a listed allow suffix lends its own resolved addresses
 * the allowance (the operator trusted the name, wherever it points), but deny
 * entries and metadata addresses still win. A range must lie wholly inside the
 * allowed set.
 *
 * The engine checks a target once with `checkTarget`, connects only to the
 * addresses that check returned, and asks `assertAddressAllowed` again right
 * before each connection, so a DNS answer that changes in between (rebinding)
 * cannot move a scan elsewhere.
 */

/** Resolves a host name to its literal addresses (all of them, IPv4 and IPv6). */
export type Resolver = (name: string) => Promise<string[]>;

/** The outcome of an allowed target: what the engine may connect to. */
export interface ScopeCheck {
  kind: ParsedTarget['kind'];
  /** The normalized target: the address, the network in CIDR form, or the lower-case name. */
  target: string;
  /** ip: the address; domain: every resolved address (normalized); cidr: empty, see `range`. */
  addresses: string[];
  /** cidr: the range, walk it with `addressesOf` (ip-ranges.ts). */
  range?: IpRange;
  /** A domain whose name matched an allow suffix: its resolved addresses are allowed through the name. */
  allowedByName: boolean;
}

export interface ScopeRules {
  /** Entries of SCANWARD_SCAN_ALLOW; undefined = public addresses only. */
  allow: readonly string[] | undefined;
  deny: readonly string[];
}

interface ParsedList {
  ranges: IpRange[];
  suffixes: string[];
  /** The allow list's `public` entry: every public address, as without a list. */
  public: boolean;
}

/** The allow list's entry that keeps the default (public addresses) next to what else it lists. */
export const PUBLIC_ENTRY = 'public';

/** Splits a configured list into address ranges and domain suffixes; throws on an entry that is neither. */
function parseList(name: string, entries: readonly string[]): ParsedList {
  const out: ParsedList = { ranges: [], suffixes: [], public: false };
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry.toLowerCase() === PUBLIC_ENTRY) {
      if (name !== 'SCANWARD_SCAN_ALLOW') {
        throw new Error(`${name}: "${entry}" is only understood in SCANWARD_SCAN_ALLOW`);
      }
      out.public = true;
      continue;
    }
    const range = rangeOf(entry);
    if (range) {
      out.ranges.push(range);
      continue;
    }
    const suffix = normalizeHostName(entry.replace(/^\*?\./, ''));
    if (!suffix) throw new Error(`${name}: "${entry}" is not a CIDR, an IP address or a domain suffix`);
    out.suffixes.push(suffix);
  }
  return out;
}

function matchesSuffix(name: string, suffixes: readonly string[]): boolean {
  return suffixes.some((s) => name === s || name.endsWith(`.${s}`));
}

export const targetNotAllowed = (detail: string) => new AppError(422, 'TARGET_NOT_ALLOWED', detail, 'target');

const RESOLVE_TIMEOUT_MS = 5000;

/** The system resolver (getaddrinfo, so /etc/hosts counts), bounded in time. */
export const systemResolver: Resolver = async (name) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })),
      RESOLVE_TIMEOUT_MS,
    );
  });
  try {
    const answers = await Promise.race([lookup(name, { all: true, verbatim: true }), timeout]);
    return answers.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
};

export class ScopePolicy {
  private readonly allow: ParsedList | undefined;
  private readonly deny: ParsedList;

  constructor(
    rules: ScopeRules,
    private readonly ceiling: CidrCeiling,
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.allow = rules.allow === undefined ? undefined : parseList('SCANWARD_SCAN_ALLOW', rules.allow);
    this.deny = parseList('SCANWARD_SCAN_DENY', rules.deny);
  }

  /**
   * Whether every address of the range may be scanned; `byName` when a listed allow suffix
   * vouches for it. The one address policy decides (address-policy.ts): link-local and cloud
   * metadata addresses only when SCANWARD_SCAN_ALLOW names the exact address, and an IPv6
   * address carrying an IPv4 address judged as both.
   */
  rangeAllowed(range: IpRange, byName = false): boolean {
    return this.refusal(range, byName) === undefined;
  }

  /** Whether a literal address may be scanned on its own merits (no name vouching for it). */
  isAddressAllowed(ip: string): boolean {
    const range = addressRange(ip);
    return range !== undefined && this.rangeAllowed(range);
  }

  /**
   * Parses and checks a target, resolving a name first. Answers what the
   * engine may connect to, or throws 422: VALIDATION_ERROR for a malformed
   * target or a name that does not resolve, TARGET_NOT_ALLOWED outside the
   * scope.
   */
  async checkTarget(input: string | ParsedTarget): Promise<ScopeCheck> {
    const target = typeof input === 'string' ? parseTarget(input, this.ceiling) : input;
    if (target.kind === 'ip') {
      if (!this.rangeAllowed(addressRange(target.address)!)) {
        throw targetNotAllowed(
          `target ${target.address} is outside the scan scope${this.hint(addressRange(target.address))}`,
        );
      }
      return { kind: 'ip', target: target.address, addresses: [target.address], allowedByName: false };
    }
    if (target.kind === 'cidr') {
      if (!this.rangeAllowed(target.range)) {
        throw targetNotAllowed(
          `target range ${target.network} is not wholly inside the scan scope${this.hint(target.range)}`,
        );
      }
      return {
        kind: 'cidr',
        target: target.network,
        addresses: [],
        range: target.range,
        allowedByName: false,
      };
    }
    return this.checkName(target.name);
  }

  private async checkName(name: string): Promise<ScopeCheck> {
    if (matchesSuffix(name, this.deny.suffixes)) {
      throw targetNotAllowed(`target ${name} is excluded from the scan scope`);
    }
    const byName = this.allow !== undefined && matchesSuffix(name, this.allow.suffixes);
    if (this.allow && !byName && this.allow.ranges.length === 0 && !this.allow.public) {
      // Nothing it could resolve to would pass: refuse without asking DNS.
      throw targetNotAllowed(`target ${name} is outside the scan scope${this.hint()}`);
    }
    const addresses = await this.resolveName(name);
    for (const address of addresses) {
      if (!this.rangeAllowed(addressRange(address)!, byName)) {
        throw targetNotAllowed(
          `target ${name} resolves to ${address}, which is outside the scan scope${this.hint(addressRange(address))}`,
        );
      }
    }
    return { kind: 'domain', target: name, addresses, allowedByName: byName };
  }

  private async resolveName(name: string): Promise<string[]> {
    let answers: string[];
    try {
      answers = await this.resolve(name);
    } catch {
      throw validationError('target', `target ${name} does not resolve to an address`);
    }
    const addresses = [
      ...new Set(answers.map((a) => parseAddress(a)?.toString()).filter((a) => a !== undefined)),
    ];
    if (addresses.length === 0)
      throw validationError('target', `target ${name} does not resolve to an address`);
    return addresses;
  }

  /**
   * Throws TARGET_NOT_ALLOWED unless the engine may connect to `ip` now. With
   * the target's check, the address must also be one that check approved (one
   * of its addresses, or inside its range).
   */
  assertAddressAllowed(ip: string, check?: ScopeCheck): void {
    const address = parseAddress(ip);
    if (!address) throw targetNotAllowed(`${ip} is not an IP address`);
    const normalized = address.toString();
    const range = addressRange(normalized)!;
    if (check) {
      const approved = check.range ? coveredBy(range, [check.range]) : check.addresses.includes(normalized);
      if (!approved) throw targetNotAllowed(`${normalized} is not an address of target ${check.target}`);
    }
    if (!this.rangeAllowed(range, check?.allowedByName === true)) {
      throw targetNotAllowed(`${normalized} is outside the scan scope`);
    }
  }

  /** Why the policy refuses the range, decided by the one address policy (address-policy.ts). */
  private refusal(range: IpRange, byName: boolean): AddressRefusal | undefined {
    return addressRefusal(range, {
      purpose: 'scan',
      allow: this.allow?.ranges,
      allowPublic: this.allow?.public ?? false,
      deny: this.deny.ranges,
      byName,
    });
  }

  /**
   * Names the policy in force and how to widen it (docs/scans.md). The operator's
   * list itself is not repeated: it describes their networks to any caller.
   */
  private hint(range?: IpRange): string {
    const refusal = range ? this.refusal(range, false) : undefined;
    if (refusal === 'cloud-metadata' || refusal === 'link-local') {
      return ` (${refusalReason(refusal)}: refused unless SCANWARD_SCAN_ALLOW names that exact address)`;
    }
    if (refusal === 'denied') return ' (SCANWARD_SCAN_DENY excludes it)';
    if (!this.allow) {
      return (
        '. The policy in force is the default, public addresses only (SCANWARD_SCAN_ALLOW is unset); ' +
        'to scan other addresses the operator sets SCANWARD_SCAN_ALLOW, which replaces the default, ' +
        'so keep public targets with its `public` entry (SCANWARD_SCAN_ALLOW=public,10.0.0.0/8)'
      );
    }
    if (this.allow.public) {
      return (
        '. The policy in force is SCANWARD_SCAN_ALLOW: public addresses plus what it lists; ' +
        'the operator can add the target to SCANWARD_SCAN_ALLOW (or remove it from SCANWARD_SCAN_DENY)'
      );
    }
    return (
      '. The policy in force is SCANWARD_SCAN_ALLOW, which replaces the default (public addresses): ' +
      'only what it lists may be scanned. To allow public targets, the operator adds `public` to ' +
      'SCANWARD_SCAN_ALLOW (SCANWARD_SCAN_ALLOW=public,127.0.0.0/8,::1,localhost); other targets ' +
      'are added to it as CIDRs, addresses or domain suffixes'
    );
  }
}

const policies = new WeakMap<Config['scope'], ScopePolicy>();

/**
 * The process's scope policy for a configuration, built once. Building it
 * checks the lists, so calling this at start-up fails fast on a bad entry.
 */
export function scopePolicyFor(config: Config): ScopePolicy {
  let policy = policies.get(config.scope);
  if (!policy) {
    policy = new ScopePolicy({ allow: config.scope.allow, deny: config.scope.deny }, config.scope);
    policies.set(config.scope, policy);
  }
  return policy;
}
