import * as calculatorModule from 'ae-cvss-calculator';

type Calculator = typeof calculatorModule;
/**
 * The package is a webpack-built CommonJS module: Node's ESM loader exposes it only
 * as `default`, while CommonJS and bundlers see the named exports. Take whichever
 * has the classes.
 */
const calculator: Calculator =
  (calculatorModule as Calculator & { default?: Calculator }).default ?? calculatorModule;

/**
 * CVSS base scores computed from the vector, never taken from a template's own
 * `cvss-score` (upstream templates disagree with their vectors now and then).
 *
 * The arithmetic is done by `ae-cvss-calculator`. That library is lenient (it accepts
 * duplicate metrics and silently scores incomplete vectors as 0), so the vector is
 * checked here first against the metric tables of the FIRST specifications, and
 * only a complete, well-formed base vector reaches it.
 */

export type CvssVersion = '3.0' | '3.1' | '4.0';
export type CvssRating = 'none' | 'low' | 'medium' | 'high' | 'critical';

export interface ParsedCvssVector {
  version: CvssVersion;
  /** Every metric of the vector, as written (`{ AV: 'N', AC: 'L', … }`). */
  metrics: Readonly<Record<string, string>>;
  /** The base metrics only, in the specification's order, with the version prefix. */
  baseVector: string;
}

export interface CvssScore extends ParsedCvssVector {
  /** The vector as given (trimmed). */
  vector: string;
  baseScore: number;
  rating: CvssRating;
}

/** Thrown for anything that is not a complete CVSS 3.0, 3.1 or 4.0 vector. */
export class InvalidCvssVectorError extends Error {
  readonly code = 'INVALID_CVSS_VECTOR';
  constructor(
    readonly vector: string,
    readonly reason: string,
  ) {
    super(`invalid CVSS vector "${vector}": ${reason}`);
    this.name = 'InvalidCvssVectorError';
  }
}

type MetricTable = Readonly<Record<string, readonly string[]>>;

const CIA3 = ['N', 'L', 'H'];
const BASE_3: MetricTable = {
  AV: ['N', 'A', 'L', 'P'],
  AC: ['L', 'H'],
  PR: ['N', 'L', 'H'],
  UI: ['N', 'R'],
  S: ['U', 'C'],
  C: CIA3,
  I: CIA3,
  A: CIA3,
};
const OPTIONAL_3: MetricTable = {
  E: ['X', 'U', 'P', 'F', 'H'],
  RL: ['X', 'O', 'T', 'W', 'U'],
  RC: ['X', 'U', 'R', 'C'],
  CR: ['X', 'L', 'M', 'H'],
  IR: ['X', 'L', 'M', 'H'],
  AR: ['X', 'L', 'M', 'H'],
  MAV: ['X', 'N', 'A', 'L', 'P'],
  MAC: ['X', 'L', 'H'],
  MPR: ['X', 'N', 'L', 'H'],
  MUI: ['X', 'N', 'R'],
  MS: ['X', 'U', 'C'],
  MC: ['X', 'N', 'L', 'H'],
  MI: ['X', 'N', 'L', 'H'],
  MA: ['X', 'N', 'L', 'H'],
};

const HLN = ['H', 'L', 'N'];
const BASE_4: MetricTable = {
  AV: ['N', 'A', 'L', 'P'],
  AC: ['L', 'H'],
  AT: ['N', 'P'],
  PR: ['N', 'L', 'H'],
  UI: ['N', 'P', 'A'],
  VC: HLN,
  VI: HLN,
  VA: HLN,
  SC: HLN,
  SI: HLN,
  SA: HLN,
};
const OPTIONAL_4: MetricTable = {
  E: ['X', 'A', 'P', 'U'],
  CR: ['X', 'H', 'M', 'L'],
  IR: ['X', 'H', 'M', 'L'],
  AR: ['X', 'H', 'M', 'L'],
  MAV: ['X', 'N', 'A', 'L', 'P'],
  MAC: ['X', 'L', 'H'],
  MAT: ['X', 'N', 'P'],
  MPR: ['X', 'N', 'L', 'H'],
  MUI: ['X', 'N', 'P', 'A'],
  MVC: ['X', 'H', 'L', 'N'],
  MVI: ['X', 'H', 'L', 'N'],
  MVA: ['X', 'H', 'L', 'N'],
  MSC: ['X', 'H', 'L', 'N'],
  MSI: ['X', 'S', 'H', 'L', 'N'],
  MSA: ['X', 'S', 'H', 'L', 'N'],
  S: ['X', 'N', 'P'],
  AU: ['X', 'N', 'Y'],
  R: ['X', 'A', 'U', 'I'],
  V: ['X', 'D', 'C'],
  RE: ['X', 'L', 'M', 'H'],
  U: ['X', 'Clear', 'Green', 'Amber', 'Red'],
};

const TABLES: Record<CvssVersion, { base: MetricTable; optional: MetricTable }> = {
  '3.0': { base: BASE_3, optional: OPTIONAL_3 },
  '3.1': { base: BASE_3, optional: OPTIONAL_3 },
  '4.0': { base: BASE_4, optional: OPTIONAL_4 },
};

/** Splits and checks a vector; throws {@link InvalidCvssVectorError}. */
export function parseCvssVector(input: string): ParsedCvssVector {
  const vector = input.trim();
  const prefix = /^CVSS:(\d+\.\d+)\//.exec(vector);
  if (!prefix) throw new InvalidCvssVectorError(vector, 'must start with CVSS:3.0/, CVSS:3.1/ or CVSS:4.0/');
  const version = prefix[1];
  if (version !== '3.0' && version !== '3.1' && version !== '4.0') {
    throw new InvalidCvssVectorError(vector, `CVSS version ${version} is not supported`);
  }
  const { base, optional } = TABLES[version];
  const metrics: Record<string, string> = {};
  for (const part of vector.slice(prefix[0].length).split('/')) {
    const match = /^([A-Z]+):([A-Za-z]+)$/.exec(part);
    if (!match) throw new InvalidCvssVectorError(vector, `"${part}" is not a metric:value pair`);
    const [, name = '', value = ''] = match;
    const allowed = base[name] ?? optional[name];
    if (!allowed) throw new InvalidCvssVectorError(vector, `unknown metric ${name} for CVSS ${version}`);
    if (!allowed.includes(value))
      throw new InvalidCvssVectorError(vector, `${name}:${value} is not a valid value`);
    if (name in metrics) throw new InvalidCvssVectorError(vector, `metric ${name} appears twice`);
    metrics[name] = value;
  }
  const missing = Object.keys(base).filter((name) => !(name in metrics));
  if (missing.length > 0) {
    throw new InvalidCvssVectorError(vector, `missing base metric(s) ${missing.join(', ')}`);
  }
  const baseVector = [`CVSS:${version}`, ...Object.keys(base).map((name) => `${name}:${metrics[name]}`)].join(
    '/',
  );
  return { version, metrics, baseVector };
}

/** The qualitative rating of a score (identical bands in CVSS 3.x and 4.0). */
export function cvssRating(score: number): CvssRating {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'none';
}

/** The base score and rating of a CVSS 3.0, 3.1 or 4.0 vector. */
export function cvssScore(vector: string): CvssScore {
  const parsed = parseCvssVector(vector);
  const baseScore = computeBaseScore(parsed);
  return { ...parsed, vector: vector.trim(), baseScore, rating: cvssRating(baseScore) };
}

/** Like {@link cvssScore}, but `undefined` for a missing or invalid vector. */
export function tryCvssScore(vector: string | null | undefined): CvssScore | undefined {
  if (!vector) return undefined;
  try {
    return cvssScore(vector);
  } catch (error) {
    if (error instanceof InvalidCvssVectorError) return undefined;
    throw error;
  }
}

function computeBaseScore({ version, baseVector }: ParsedCvssVector): number {
  let score: number | undefined;
  if (version === '4.0') {
    score = new calculator.Cvss4P0(baseVector).calculateScores().overall;
  } else {
    const Cvss = version === '3.0' ? calculator.Cvss3P0 : calculator.Cvss3P1;
    score = new Cvss(baseVector).calculateScores().base;
  }
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 10) {
    throw new InvalidCvssVectorError(baseVector, 'the calculator could not score this vector');
  }
  return Math.round(score * 10) / 10;
}
