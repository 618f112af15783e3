import { describe, expect, it } from 'vitest';
import {
  DslBudget,
  dslMatches,
  DslTooCostly,
  evaluateDsl,
  MAX_DSL_BUILT,
  MAX_DSL_STEPS,
  MAX_DSL_STRING,
  MAX_DSL_WORK,
  parseDsl,
  type DslValue,
} from '../../../../server/scanner/templates/dsl.ts';
import { parseResponse } from '../../../../server/scanner/net/http-client.ts';
import { matcherMatches, ResponseView } from '../../../../server/scanner/templates/matchers.ts';
import type { CompiledMatcher } from '../../../../server/scanner/templates/schema.ts';

/** A 256 KiB page, the most a template reads of a response. */
const PAGE = `<html>${'abcdefgh'.repeat(32 * 1024 - 2)}</html>`.padEnd(256 * 1024, ' ');
const vars = new Map<string, DslValue>([
  ['body', PAGE],
  ['half', 'x'.repeat(MAX_DSL_STRING / 2)],
  ['status_code', 200],
]);

const evaluate = (source: string, budget?: DslBudget): Promise<DslValue> =>
  evaluateDsl(parseDsl(source), vars, budget);

/** The evaluation fails as too costly, with a message naming `what`. */
async function tooCostly(source: string, what: RegExp): Promise<void> {
  const error = await evaluate(source).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, source).toBeInstanceOf(DslTooCostly);
  expect((error as Error).message, source).toMatch(what);
}

describe('DSL bounds: every function that can grow a string is capped', () => {
  it('keeps the cap at four times the largest response read, so real uses fit', () => {
    expect(MAX_DSL_STRING).toBe(4 * 256 * 1024);
  });

  it('replace: refuses as soon as its result is known to pass the cap, and stays exact below it', async () => {
    // Each of the page's 32,766 "a" would become the whole page (8.6 G characters): refused at
    // the fourth match, when what is built plus what is left passes 1 Mi.
    await tooCostly("len(replace(body, 'a', body))", /^replace\(\) would build 1,\d{3},\d{3} characters/);
    await tooCostly("replace(replace(replace(body, 'a', body), 'b', body), 'c', body) == ''", /^replace\(\)/);
    // Growth within the cap: the page's 32,766 "a" become "aaaa" (+3 each).
    expect(await evaluate("len(replace(body, 'a', 'aaaa'))")).toBe(PAGE.length + 3 * 32_766);
    // Exactly at the cap is allowed, one character more is not.
    expect(await evaluate("len(replace(half, 'x', 'yy'))")).toBe(MAX_DSL_STRING);
    await tooCostly(
      "replace(concat(half, 'x'), 'x', 'yy')",
      /^replace\(\) would build 1,048,57[78] characters/,
    );
    // Go's ReplaceAll with an empty `old`: before every code point and at the end.
    expect(await evaluate("replace('ab', '', '-')")).toBe('-a-b-');
    await tooCostly("replace(body, '', '---')", /^replace\(\) would build 1,048,579/);
  });

  it('concat and + add up their parts before joining them', async () => {
    expect(await evaluate('len(concat(half, half))')).toBe(MAX_DSL_STRING);
    await tooCostly("concat(half, half, 'x')", /^concat\(\) would build 1,048,577/);
    expect(await evaluate('len(half + half)')).toBe(MAX_DSL_STRING);
    await tooCostly("half + half + 'x'", /^\+ would build 1,048,577/);
    // A number and a string concatenate as text, under the same cap.
    expect(await evaluate("1 + 'a'")).toBe('1a');
  });

  it('repeat: refuses a count whose result would pass the cap without building it', async () => {
    expect(await evaluate("repeat('../', 3)")).toBe('../../../');
    expect(await evaluate("len(repeat('ab', 524288))")).toBe(MAX_DSL_STRING);
    await tooCostly("repeat('ab', 524289)", /^repeat\(\) would build 1,048,578/);
    // A quadrillion copies is refused at once (building it would exhaust the heap).
    await tooCostly("repeat(body, 1000000000000000) == ''", /^repeat\(\)/);
    await tooCostly('repeat(repeat(body, 4), 4)', /^repeat\(\)/);
    expect(await dslMatches(parseDsl("repeat('a', -1) == ''"), vars)).toBe(false);
  });

  it('the encoders measure their output from the bytes first', async () => {
    // 768 Ki bytes: base64 is exactly 1 Mi characters, hex twice as many.
    const bytes = new Map<string, DslValue>([['data', 'z'.repeat(768 * 1024)]]);
    const run = (source: string) => evaluateDsl(parseDsl(source), bytes);
    expect(await run('len(base64(data))')).toBe(MAX_DSL_STRING);
    await expect(run("base64(concat(data, 'zzz'))")).rejects.toThrow(/^base64\(\) would build 1,048,580/);
    await expect(run('base64_py(data)')).rejects.toThrow(/^base64_py\(\) would build/);
    expect(await evaluate('len(hex_encode(half))')).toBe(MAX_DSL_STRING);
    await tooCostly("hex_encode(concat(half, 'x'))", /^hex_encode\(\) would build 1,048,578/);
    // url_encode: each "é" is 6 characters, each "€" 9, an emoji 12.
    expect(await evaluate("url_encode('é€😀 a')")).toBe('%C3%A9%E2%82%AC%F0%9F%98%80%20a');
    await tooCostly("url_encode(repeat('é', 174763))", /^url_encode\(\) would build 1,048,578/);
    expect(await evaluate("len(url_encode(repeat('é', 174762)))")).toBe(1_048_572);
    // Hashes read their input but build nothing large.
    expect(await evaluate('len(sha256(body)) + len(md5(body)) + len(sha1(body))')).toBe(64 + 32 + 40);
  });

  it('case mapping is measured once built (at most three times its input)', async () => {
    expect(await evaluate("to_upper('straße')")).toBe('STRASSE');
    // "ß" upper-cases to "SS": half the cap of them doubles to the cap, plus one passes it.
    const sharp = new Map<string, DslValue>([['s', 'ß'.repeat(MAX_DSL_STRING / 2 + 1)]]);
    await expect(evaluateDsl(parseDsl('to_upper(s)'), sharp)).rejects.toThrow(
      /^to_upper\(\) would build 1,048,578/,
    );
    await expect(evaluateDsl(parseDsl('toupper(s)'), sharp)).rejects.toBeInstanceOf(DslTooCostly);
    expect(await evaluateDsl(parseDsl('len(to_lower(s))'), sharp)).toBe(MAX_DSL_STRING / 2 + 1);
  });

  it('decoders only shrink, and count what they build', async () => {
    expect(
      await evaluate("base64_decode(base64('hi')) + hex_decode(hex_encode('!')) + url_decode('%41')"),
    ).toBe('hi!A');
    const budget = new DslBudget();
    await evaluate('len(base64_decode(base64(body)))', budget);
    expect(budget.built).toBeGreaterThanOrEqual(PAGE.length + (4 * PAGE.length) / 3);
  });
});

describe('DSL bounds: the work of one evaluation is capped', () => {
  it('counts steps: a call with more arguments than the step budget is refused', async () => {
    const many = `concat(${Array.from({ length: MAX_DSL_STEPS }, () => "'a'").join(', ')})`;
    await tooCostly(many, /^more than 10,000 steps/);
    const fewer = `len(concat(${Array.from({ length: MAX_DSL_STEPS - 10 }, () => "'a'").join(', ')}))`;
    expect(await evaluate(fewer)).toBe(MAX_DSL_STEPS - 10);
  });

  it('counts characters built: many copies of the page, each under the cap, add up', async () => {
    const copies = Math.ceil(MAX_DSL_BUILT / PAGE.length) + 1;
    const source = Array.from({ length: copies }, () => 'len(to_lower(body))').join(' + ');
    await tooCostly(source, /^more than 8,388,608 characters built/);
    const budget = new DslBudget();
    expect(await evaluate(Array.from({ length: 8 }, () => 'len(to_lower(body))').join(' + '), budget)).toBe(
      8 * PAGE.length,
    );
    expect(budget.built).toBe(8 * PAGE.length);
  });

  it('counts characters read: searching the page over and over is refused', async () => {
    const needles = Array.from({ length: 63 }, (_, i) => `'needle-${i}'`).join(', ');
    const times = Math.ceil(MAX_DSL_WORK / (63 * PAGE.length)) + 1;
    const source = Array.from({ length: times }, () => `contains_any(body, ${needles})`).join(' || ');
    await tooCostly(source, /^more than 33,554,432 characters of work/);
    expect(await evaluate(`contains_any(body, ${needles})`)).toBe(false);
  });

  it('bounds what regex() compiles: a page as the pattern (arguments swapped) does not match', async () => {
    expect(await evaluate("regex('<html>a', body)")).toBe(true);
    await expect(evaluate("regex(body, '<html>')")).rejects.toThrow(/^regex\(\) pattern longer than 16,384/);
    await expect(evaluate("regex(body, '<html>')")).rejects.not.toBeInstanceOf(DslTooCostly);
    expect(await dslMatches(parseDsl("regex(body, '<html>')"), vars)).toBe(false);
  });

  it('lets the event loop run between slices of a long evaluation', async () => {
    let turns = 0;
    let running = true;
    const tick = (): void => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    // About 22 Mi characters of work and 7.5 Mi built, under the budgets.
    const source = Array.from({ length: 10 }, () => 'len(to_lower(body)) + len(hex_encode(body))').join(
      ' + ',
    );
    const result = await evaluate(source);
    running = false;
    expect(result).toBe(10 * 3 * PAGE.length);
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it('rejects expressions nested deeper than any template needs, when they load', () => {
    const deep = `${'to_lower('.repeat(70)}body${')'.repeat(70)}`;
    expect(() => parseDsl(deep)).toThrow(/nested deeper than 64/);
    expect(() => parseDsl(`${'to_lower('.repeat(60)}body${')'.repeat(60)}`)).not.toThrow();
  });
});

describe('DSL bounds: a too-costly matcher does not match', () => {
  const view = (): ResponseView =>
    new ResponseView(
      parseResponse(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${PAGE}`))!,
    );
  const dsl = (expressions: string[], negative = false): CompiledMatcher =>
    ({
      type: 'dsl',
      part: 'all',
      condition: 'or',
      negative,
      caseInsensitive: false,
      words: [],
      regexes: [],
      statuses: [],
      sizes: [],
      binaries: [],
      dsl: expressions.map((e) => parseDsl(e)),
    }) satisfies CompiledMatcher;

  it('even when negative, and leaves the reason on the view', async () => {
    const bomb = "contains(replace(replace(body, 'a', body), 'b', body), 'x')";
    for (const negative of [false, true]) {
      const v = view();
      expect(await matcherMatches(dsl([bomb], negative), v)).toBe(false);
      expect(v.tooCostly).toBeInstanceOf(DslTooCostly);
    }
    // An ordinary expression on the same page matches as before.
    const plain = view();
    expect(await matcherMatches(dsl(["contains(body, '<html>') && status_code == 200"]), plain)).toBe(true);
    expect(plain.tooCostly).toBeUndefined();
    // Other errors stay plain "no match", not too costly.
    const odd = view();
    expect(await matcherMatches(dsl(['to_number(body) > 1']), odd)).toBe(false);
    expect(odd.tooCostly).toBeUndefined();
  });
});
