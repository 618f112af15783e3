import { describe, expect, it } from 'vitest';
import {
  cvssRating,
  cvssScore,
  InvalidCvssVectorError,
  parseCvssVector,
  tryCvssScore,
} from '../../../server/scoring/cvss.ts';
import { severityForScore } from '../../../server/scoring/severity.ts';

/*
 * Expected scores worked out by hand from the CVSS v3.1 specification, section 7
 * (ISS = 1 - (1-C)(1-I)(1-A); Impact = 6.42·ISS unchanged, 7.52·(ISS-0.029) - 3.25·(ISS-0.02)^15
 * changed; Exploitability = 8.22·AV·AC·PR·UI; Roundup to one decimal):
 *
 * AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H  ISS 0.9148, Impact 5.873, Expl 3.887 → 9.760 → 9.8
 * AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H  Impact 6.048, 1.08·(6.048+3.887) = 10.73 → capped 10.0
 * AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N  Impact 1.412 + 3.887 = 5.299 → 5.3
 * AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H  Expl 8.22·0.55·0.77·0.62·0.85 = 1.835, + 5.873 = 7.708 → 7.8
 * AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N  ISS 0.3916, Impact 2.727, Expl 2.835, 1.08·5.562 = 6.007 → 6.1
 * AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:N  Impact 0 → 0.0
 */
const REFERENCE_V31: Array<[string, number, string]> = [
  ['AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8, 'critical'],
  ['AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 10, 'critical'],
  ['AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N', 5.3, 'medium'],
  ['AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', 7.8, 'high'],
  ['AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1, 'medium'],
  ['AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:N', 0, 'none'],
];

describe('cvssScore', () => {
  it.each(REFERENCE_V31)('scores CVSS:3.1/%s as %s', (metrics, score, rating) => {
    const result = cvssScore(`CVSS:3.1/${metrics}`);
    expect(result.version).toBe('3.1');
    expect(result.baseScore).toBe(score);
    expect(result.rating).toBe(rating);
  });

  it('scores CVSS 3.0 vectors with the 3.0 rules', () => {
    expect(cvssScore('CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toMatchObject({
      version: '3.0',
      baseScore: 9.8,
    });
  });

  it('scores CVSS 4.0 vectors', () => {
    const result = cvssScore('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N');
    expect(result).toMatchObject({ version: '4.0', baseScore: 9.3, rating: 'critical' });
  });

  it('reports the base score even when temporal or threat metrics lower the overall score', () => {
    expect(cvssScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:U/RL:O/RC:U').baseScore).toBe(9.8);
    const v4 = cvssScore('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U');
    expect(v4.baseScore).toBe(9.3);
    expect(v4.baseVector).toBe('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N');
  });

  it('accepts metrics in any order and reports them in specification order', () => {
    const result = cvssScore('CVSS:3.1/C:H/I:H/A:H/AV:N/AC:L/PR:N/UI:N/S:U');
    expect(result.baseScore).toBe(9.8);
    expect(result.baseVector).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H');
  });

  it.each([
    ['', 'must start with'],
    ['AV:N/AC:L/Au:N/C:P/I:P/A:P', 'must start with'],
    ['CVSS:2.0/AV:N/AC:L/Au:N/C:P/I:P/A:P', 'not supported'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H', 'missing base metric(s) A'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:Q', 'A:Q is not a valid value'],
    ['CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'AV:X is not a valid value'],
    ['CVSS:3.1/AV:N/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'appears twice'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/FOO:1', '"FOO:1" is not a metric:value pair'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/ZZ:H', 'unknown metric ZZ'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/', 'is not a metric:value pair'],
    ['CVSS:4.0/AV:N/AC:L/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 'missing base metric(s) AT'],
  ])('rejects %j with a typed error (%s)', (vector, reason) => {
    let thrown: unknown;
    try {
      cvssScore(vector);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidCvssVectorError);
    expect((thrown as InvalidCvssVectorError).code).toBe('INVALID_CVSS_VECTOR');
    expect((thrown as InvalidCvssVectorError).reason).toContain(reason);
  });

  it('exposes the parsed metrics', () => {
    expect(parseCvssVector('CVSS:3.1/AV:A/AC:H/PR:L/UI:R/S:U/C:L/I:N/A:N').metrics).toMatchObject({
      AV: 'A',
      PR: 'L',
    });
  });
});

describe('tryCvssScore', () => {
  it('answers undefined for a missing or invalid vector instead of throwing', () => {
    expect(tryCvssScore(undefined)).toBeUndefined();
    expect(tryCvssScore(null)).toBeUndefined();
    expect(tryCvssScore('CVSS:3.1/AV:N')).toBeUndefined();
    expect(tryCvssScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')?.baseScore).toBe(9.8);
  });
});

describe('ratings', () => {
  it.each([
    [0, 'none', 'info'],
    [0.1, 'low', 'low'],
    [3.9, 'low', 'low'],
    [4.0, 'medium', 'medium'],
    [6.9, 'medium', 'medium'],
    [7.0, 'high', 'high'],
    [8.9, 'high', 'high'],
    [9.0, 'critical', 'critical'],
    [10, 'critical', 'critical'],
  ])('rates %s as %s (finding severity %s)', (score, rating, severity) => {
    expect(cvssRating(score)).toBe(rating);
    expect(severityForScore(score)).toBe(severity);
  });
});
