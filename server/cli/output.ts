import type { LimitsView, OrganizationView } from './org-commands.ts';
import type { UserView } from './user-commands.ts';

/** Where the command line writes; tests pass collectors, main.ts the process streams. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Prints `data` as one JSON document with --json, otherwise the human-readable text. */
export function emit(out: Output, json: boolean, data: unknown, text: () => string): void {
  out.stdout(json ? `${JSON.stringify(data, null, 2)}\n` : `${text()}\n`);
}

/** Rows of cells, each column padded to its widest cell, two spaces apart. */
export function columns(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function table(header: string[], rows: string[][]): string {
  return columns([header, ...rows]);
}

const LIMIT_LABELS: Record<keyof LimitsView, string> = {
  hourly: 'requests per hour',
  daily: 'requests per day',
  scans_per_month: 'scans per month',
  concurrent: 'concurrent scans',
  ai_credits: 'AI credits per month',
};

const amount = (n: number) => (n === -1 ? 'unlimited' : String(n));

export function formatOrganization(org: OrganizationView): string {
  const limits = (Object.keys(LIMIT_LABELS) as Array<keyof LimitsView>).map((key) => [
    `  ${LIMIT_LABELS[key]}`,
    amount(org.limits[key]),
    key in org.overrides ? '(set for this organization)' : '(plan default)',
  ]);
  return `${org.id}  ${org.name}  (plan: ${org.plan})\n${columns(limits)}`;
}

export function formatOrganizations(orgs: OrganizationView[]): string {
  if (orgs.length === 0) return 'no organizations';
  return table(
    ['ID', 'PLAN', 'CREATED', 'NAME'],
    orgs.map((o) => [o.id, o.plan, o.created_at, o.name]),
  );
}

export function formatUsers(users: UserView[]): string {
  if (users.length === 0) return 'no users';
  return table(
    ['ID', 'EMAIL', 'ROLE', 'MFA', 'STATUS', 'ORGANIZATION', 'CREATED'],
    users.map((u) => [
      u.id,
      u.email,
      u.role,
      u.mfa_enabled ? 'on' : 'off',
      u.disabled_at ? 'disabled' : 'active',
      `${u.org_id} (${u.org_name})`,
      u.created_at,
    ]),
  );
}
