/**
 * The places the attack checks put their payloads: every parameter of every crawled request
 * (a link's query, a form's query or body, a JSON body), each as an `AttackTarget` that can be
 * sent again with one parameter replaced, and with a fresh anti-CSRF token when its form
 * carries one (the form's page is loaded again first, as a browser would).
 */
import type { HtmlForm, FormField } from './html.ts';
import type { WebRequest } from './client.ts';

export type ParamLocation = 'query' | 'form' | 'json';

export interface Param {
  name: string;
  location: ParamLocation;
  /** The value the page gave or the crawler chose. */
  value: string;
}

export interface AttackTarget {
  method: 'GET' | 'POST';
  /** The path without query. */
  pathname: string;
  query: Array<[string, string]>;
  body?: { kind: 'form' | 'json'; fields: Array<[string, string]> };
  /** What may be attacked (free-text fields; not choices, tokens or buttons). */
  params: Param[];
  /** The form this request came from, when it came from one. */
  form?: {
    /** The page that shows the form (loaded again for a fresh token). */
    page: string;
    action: string;
    /** Hidden fields that look like anti-CSRF tokens. */
    tokens: string[];
    fields: FormField[];
  };
}

/** Names that mark an anti-CSRF token field. */
export const TOKEN_NAME =
  /csrf|xsrf|token|nonce|authenticity|__requestverification|_wpnonce|form_key|formkey/i;

/** Field types never attacked: choices the page offers, files, buttons. */
const NOT_ATTACKED = new Set(['select', 'radio', 'checkbox', 'submit', 'file', 'image', 'button']);

/** A sensible value for a field the page left empty, by type and name. */
export function sensibleValue(field: FormField, password: string | undefined): string {
  if (field.value !== '' && field.type !== 'password') return field.value;
  const name = field.name.toLowerCase();
  switch (field.type) {
    case 'password':
      return password ?? 'Scanward-Passw0rd';
    case 'email':
      return 'scanward@example.com';
    case 'url':
      return 'https://example.com/';
    case 'number':
    case 'range':
      return '1';
    case 'tel':
      return '5555550100';
    case 'date':
      return '2024-01-01';
    case 'color':
      return '#000000';
  }
  if (/mail/.test(name)) return 'scanward@example.com';
  if (/^(ip|host|hostname|addr|address|target|server|domain)$/.test(name) || /ip$|host/.test(name))
    return '127.0.0.1';
  if (/url|link|website|redirect|return|next/.test(name)) return 'https://example.com/';
  if (/(^|_)(id|num|count|page|qty|quantity|age|year|amount|number)$/.test(name) || name === 'id') return '1';
  if (/phone|tel/.test(name)) return '5555550100';
  return 'scanward';
}

/** The fields a browser submits: every field but the submit buttons after the first. */
export function submittedFields(fields: FormField[], password: string | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let submitted = false;
  for (const field of fields) {
    if (field.type === 'submit') {
      if (submitted) continue;
      submitted = true;
    }
    if (field.type === 'file') continue;
    out.push([field.name, sensibleValue(field, password)]);
  }
  return out;
}

export function targetFromForm(
  form: HtmlForm,
  page: string,
  actionPath: string,
  password: string | undefined,
): AttackTarget {
  const url = new URL(actionPath, 'http://x');
  const fields = submittedFields(form.fields, password);
  const tokens = form.fields.filter((f) => f.type === 'hidden' && TOKEN_NAME.test(f.name)).map((f) => f.name);
  const attackable = new Set(
    form.fields.filter((f) => !NOT_ATTACKED.has(f.type) && !tokens.includes(f.name)).map((f) => f.name),
  );
  const formParams = (location: ParamLocation): Param[] =>
    fields.filter(([name]) => attackable.has(name)).map(([name, value]) => ({ name, location, value }));
  const base = {
    pathname: url.pathname,
    form: { page, action: actionPath, tokens, fields: form.fields },
  };
  if (form.method === 'GET') {
    return { ...base, method: 'GET', query: fields, params: formParams('query') };
  }
  const query = [...url.searchParams];
  const json = form.enctype === 'application/json';
  return {
    ...base,
    method: 'POST',
    query,
    body: { kind: json ? 'json' : 'form', fields },
    params: [
      ...query.map(([name, value]) => ({ name, location: 'query' as const, value })),
      ...formParams(json ? 'json' : 'form'),
    ],
  };
}

export function targetFromLink(path: string): AttackTarget | undefined {
  const url = new URL(path, 'http://x');
  const query = [...url.searchParams];
  if (query.length === 0) return undefined;
  return {
    method: 'GET',
    pathname: url.pathname,
    query,
    params: query.map(([name, value]) => ({ name, location: 'query', value })),
  };
}

/** One target per method, path and parameter names. */
export function targetKey(target: AttackTarget): string {
  const names = [
    ...target.query.map(([n]) => `q:${n}`),
    ...(target.body?.fields ?? []).map(([n]) => `b:${n}`),
  ];
  return `${target.method} ${target.pathname} ${names.sort().join('&')}`;
}

const encode = (pairs: Array<[string, string]>): string => new URLSearchParams(pairs).toString();

/** The request of `target` with `param` set to `value` (every other field as crawled, tokens as given). */
export function buildRequest(
  target: AttackTarget,
  param: Param | undefined,
  value: string,
  tokens: Record<string, string> = {},
): WebRequest {
  const swap = (pairs: Array<[string, string]>, location: ParamLocation): Array<[string, string]> =>
    pairs.map(([name, v]): [string, string] => [
      name,
      param && param.location === location && param.name === name ? value : (tokens[name] ?? v),
    ]);
  const queryLocation: ParamLocation = 'query';
  const query = swap(target.query, queryLocation);
  const path = query.length > 0 ? `${target.pathname}?${encode(query)}` : target.pathname;
  if (target.method === 'GET' || !target.body) return { method: target.method, path };
  const fields = swap(target.body.fields, target.body.kind === 'json' ? 'json' : 'form');
  if (target.body.kind === 'json') {
    return {
      method: 'POST',
      path,
      contentType: 'application/json',
      body: JSON.stringify(Object.fromEntries(fields)),
    };
  }
  return { method: 'POST', path, contentType: 'application/x-www-form-urlencoded', body: encode(fields) };
}

/** Where a finding of `param` on `target` is: the path, then the parameter (the correlation key's component). */
export function paramComponentPath(target: AttackTarget, param: Param): string {
  return param.location === 'query'
    ? `${target.pathname}?${param.name}=`
    : `${target.pathname}#${param.location}:${param.name}`;
}

/** How a person names the place: `the query parameter id of GET /sqli`. */
export function describeParam(target: AttackTarget, param: Param): string {
  const where =
    param.location === 'query' ? 'query parameter' : param.location === 'json' ? 'JSON field' : 'form field';
  return `the ${where} \`${param.name}\` of ${target.method} ${target.pathname}`;
}
