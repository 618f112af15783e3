/**
 * What the web assessment reads of an HTML page (htmlparser2): its links, its forms with
 * every field, its scripts' same-origin URLs, and where a marker lands (the reflection
 * contexts the XSS check tells apart: element, attribute, script, or a place where it
 * cannot run).
 */
import { parseDocument, DomUtils } from 'htmlparser2';
import type { Element } from 'domhandler';

export interface FormField {
  name: string;
  /** `text`, `password`, `hidden`, `submit`, `select`, `textarea`, `checkbox`, `radio`, `file`, … */
  type: string;
  value: string;
  /** Options of a select or the values of a radio group. */
  options?: string[];
}

export interface HtmlForm {
  /** The `action` attribute as written ('' when absent: the page itself). */
  action: string;
  method: 'GET' | 'POST';
  enctype: string;
  fields: FormField[];
}

export interface PageLinks {
  links: string[];
  forms: HtmlForm[];
  /** Script sources and URLs quoted in inline scripts (`'/api/items?id=1'`). */
  scripts: string[];
}

const attr = (el: Element, name: string): string | undefined => el.attribs[name];

function fieldsOf(form: Element): FormField[] {
  const fields: FormField[] = [];
  const radios = new Map<string, FormField>();
  for (const el of DomUtils.findAll(
    (e) => ['input', 'textarea', 'select', 'button'].includes(e.name),
    form.children,
  )) {
    const name = attr(el, 'name');
    if (!name || attr(el, 'disabled') !== undefined) continue;
    if (el.name === 'textarea') {
      fields.push({ name, type: 'textarea', value: DomUtils.textContent(el) });
    } else if (el.name === 'select') {
      const options = DomUtils.findAll((e) => e.name === 'option', el.children).map(
        (o) => attr(o, 'value') ?? DomUtils.textContent(o).trim(),
      );
      const selected = DomUtils.findOne(
        (e) => e.name === 'option' && attr(e, 'selected') !== undefined,
        el.children,
      );
      const value = selected
        ? (attr(selected, 'value') ?? DomUtils.textContent(selected).trim())
        : (options[0] ?? '');
      fields.push({ name, type: 'select', value, options });
    } else if (el.name === 'button') {
      const type = (attr(el, 'type') ?? 'submit').toLowerCase();
      if (type === 'submit') fields.push({ name, type: 'submit', value: attr(el, 'value') ?? '' });
    } else {
      const type = (attr(el, 'type') ?? 'text').toLowerCase();
      const value = attr(el, 'value') ?? '';
      if (type === 'radio') {
        const group = radios.get(name);
        if (group) {
          group.options!.push(value);
          if (attr(el, 'checked') !== undefined) group.value = value;
        } else {
          const field = { name, type, value, options: [value] };
          radios.set(name, field);
          fields.push(field);
        }
      } else if (type === 'checkbox') {
        fields.push({ name, type, value: value || 'on' });
      } else if (!['reset', 'button', 'image'].includes(type)) {
        fields.push({ name, type, value });
      }
    }
  }
  return fields;
}

/** Same-origin-looking URLs quoted in a script: absolute paths with a letter after the slash. */
export function scriptUrls(text: string): string[] {
  return [...text.matchAll(/["'`](\/[A-Za-z_][\w\-./]*(?:\?[\w\-.=&%]*)?)["'`]/g)].map((m) => m[1] as string);
}

export function parsePage(html: string): PageLinks {
  const doc = parseDocument(html, { lowerCaseAttributeNames: true, decodeEntities: true });
  const links: string[] = [];
  const scripts: string[] = [];
  for (const el of DomUtils.findAll(
    (e) => ['a', 'area', 'link', 'frame', 'iframe', 'script', 'meta'].includes(e.name),
    doc.children,
  )) {
    if (el.name === 'a' || el.name === 'area' || el.name === 'link') {
      const href = attr(el, 'href');
      if (href !== undefined) links.push(href);
    } else if (el.name === 'frame' || el.name === 'iframe') {
      const src = attr(el, 'src');
      if (src !== undefined) links.push(src);
    } else if (el.name === 'script') {
      const src = attr(el, 'src');
      if (src !== undefined) scripts.push(src);
      else scripts.push(...scriptUrls(DomUtils.textContent(el)));
    } else if (el.name === 'meta' && /refresh/i.test(attr(el, 'http-equiv') ?? '')) {
      const url = /url\s*=\s*['"]?([^'"]+)/i.exec(attr(el, 'content') ?? '');
      if (url) links.push(url[1] as string);
    }
  }
  const forms = DomUtils.findAll((e) => e.name === 'form', doc.children).map((form): HtmlForm => ({
    action: attr(form, 'action') ?? '',
    method: (attr(form, 'method') ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET',
    enctype: (attr(form, 'enctype') ?? 'application/x-www-form-urlencoded').toLowerCase(),
    fields: fieldsOf(form),
  }));
  return { links, forms, scripts };
}

export function looksLikeHtml(contentType: string | undefined, body: string): boolean {
  return (
    /html/i.test(contentType ?? '') ||
    /^\s*<(!doctype|html|head|body|div|form|p|a)\b/i.test(body.slice(0, 512))
  );
}

/** Where a marker lands in a page, for the XSS check. */
export type ReflectionContext = 'element' | 'attribute' | 'script' | 'inert';

/**
 * Every place `marker` occurs in the parsed page: in text between tags (`element`), in an
 * attribute value (`attribute`), in a script's text (`script`), or where no script runs
 * (a comment, `<textarea>`, `<title>`, a style sheet: `inert`).
 */
export function reflectionContexts(html: string, marker: string): Set<ReflectionContext> {
  const contexts = new Set<ReflectionContext>();
  const doc = parseDocument(html, { lowerCaseAttributeNames: true, decodeEntities: false });
  const visit = (
    nodes: ReturnType<typeof parseDocument>['children'],
    inert: boolean,
    script: boolean,
  ): void => {
    for (const node of nodes) {
      if (node.type === 'text') {
        if (node.data.includes(marker)) contexts.add(inert ? 'inert' : script ? 'script' : 'element');
      } else if (node.type === 'comment') {
        if (node.data.includes(marker)) contexts.add('inert');
      } else if ('attribs' in node) {
        const el = node as Element;
        for (const value of Object.values(el.attribs)) if (value.includes(marker)) contexts.add('attribute');
        const name = el.name.toLowerCase();
        visit(
          el.children,
          inert || ['textarea', 'title', 'style', 'noscript', 'xmp', 'iframe', 'noembed'].includes(name),
          script || name === 'script',
        );
      }
    }
  };
  visit(doc.children, false, false);
  return contexts;
}

/**
 * Whether the page holds an element the marker made that a browser would run: a `<script>`
 * whose code calls the marker, an element with an event handler (`on…`) calling it, or a
 * `javascript:` URL calling it. The element must not sit in an inert container.
 */
export function executesMarker(html: string, marker: string): string | undefined {
  const doc = parseDocument(html, { lowerCaseAttributeNames: true, decodeEntities: true });
  let found: string | undefined;
  const visit = (nodes: ReturnType<typeof parseDocument>['children'], inert: boolean): void => {
    for (const node of nodes) {
      if (found || !('attribs' in node)) continue;
      const el = node as Element;
      const name = el.name.toLowerCase();
      if (inert) continue;
      if (name === 'script' && DomUtils.textContent(el).includes(`${marker}(`)) {
        found = `<script> element running ${marker}()`;
        return;
      }
      for (const [key, value] of Object.entries(el.attribs)) {
        if (key.startsWith('on') && value.includes(`${marker}(`)) {
          found = `<${name} ${key}=…> event handler running ${marker}()`;
          return;
        }
        if (
          ['href', 'src', 'action', 'formaction'].includes(key) &&
          /^\s*javascript:/i.test(value) &&
          value.includes(marker)
        ) {
          found = `<${name} ${key}="javascript:…"> URL running ${marker}()`;
          return;
        }
      }
      visit(
        el.children,
        ['textarea', 'title', 'style', 'noscript', 'xmp', 'template', 'noembed'].includes(name),
      );
    }
  };
  visit(doc.children, false);
  return found;
}
