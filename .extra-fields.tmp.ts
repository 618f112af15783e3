import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { z } from 'zod';
import { allRoutes } from '/work/wt-triage/server/routes/index.ts';
import { routeFor } from '/work/wt-triage/test/helpers/api-client.ts';

const files = execSync("grep -rlE '\\.(post|put|patch|send)\\(' test action console/src --include=*.ts --include=*.tsx", { cwd: '/work/wt-triage' }).toString().trim().split('\n');

function unwrap(s: any): any {
  for (;;) {
    const d = s?._zod?.def;
    if (!d) return s;
    if (['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(d.type)) s = d.innerType;
    else if (d.type === 'pipe') s = d.in._zod.def.type === 'transform' ? d.out : d.in;
    else if (d.type === 'lazy') s = d.getter();
    else return s;
  }
}
function check(schema: any, node: ts.Expression, path: string, out: string[], sf: ts.SourceFile) {
  schema = unwrap(schema);
  const d = schema?._zod?.def;
  if (!d) return;
  if (ts.isObjectLiteralExpression(node)) {
    const options = d.type === 'union' ? d.options.map(unwrap) : [schema];
    const objs = options.filter((o: any) => o._zod.def.type === 'object');
    if (objs.length === 0) { if (d.type === 'record') return; return; }
    for (const p of node.properties) {
      if (ts.isSpreadAssignment(p)) { out.push(`${path}: spread ${p.getText(sf).slice(0, 60)}`); continue; }
      const name = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
      if (!name) continue;
      const owner = objs.find((o: any) => name in o._zod.def.shape);
      if (!owner) { if (objs.every((o: any) => !o._zod.def.catchall)) out.push(`${path}${name}: UNKNOWN`); continue; }
      if (ts.isPropertyAssignment(p)) check(owner._zod.def.shape[name], p.initializer, `${path}${name}.`, out, sf);
    }
  } else if (ts.isArrayLiteralExpression(node) && d.type === 'array') {
    for (const e of node.elements) check(d.element, e, path, out, sf);
  }
}

for (const file of files) {
  const text = readFileSync('/work/wt-triage/' + file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const m = n.expression.name.text;
      let method: string | undefined, pathArg: ts.Expression | undefined, bodyArg: ts.Expression | undefined;
      if (['post', 'put', 'patch'].includes(m)) { method = m; pathArg = n.arguments[0]; bodyArg = n.arguments[1]; }
      if (m === 'send' && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) { method = n.arguments[0].text.toLowerCase(); pathArg = n.arguments[1]; bodyArg = n.arguments[2]; }
      if (method && pathArg && bodyArg) {
        let p: string | undefined;
        if (ts.isStringLiteral(pathArg) || ts.isNoSubstitutionTemplateLiteral(pathArg)) p = pathArg.text;
        else if (ts.isTemplateExpression(pathArg)) p = pathArg.head.text + 'X' + pathArg.templateSpans.map((s) => s.literal.text).join('X');
        const line = sf.getLineAndCharacterOfPosition(n.getStart()).line + 1;
        if (p && p.startsWith('/api')) {
          const route = routeFor(allRoutes, method, p.split('?')[0]!);
          if (!route) { console.log(`${file}:${line} no route ${method} ${p}`); }
          else if (route.body && route.bodyType !== 'form') {
            const out: string[] = [];
            if (ts.isObjectLiteralExpression(bodyArg) || ts.isArrayLiteralExpression(bodyArg)) check(route.body, bodyArg, '', out, sf);
            else out.push(`non-literal body ${bodyArg.getText(sf).slice(0, 60)}`);
            for (const o of out) console.log(`${file}:${line} ${method} ${p}: ${o}`);
          }
        } else if (!p) {
          // dynamic path
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
