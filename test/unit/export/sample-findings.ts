import { Readable } from 'node:stream';
import type { ExportFinding } from '../../../server/findings/export/export-finding.ts';

/** Test material for the export renderers: findings and ways to feed and drain them. */

export function makeFinding(overrides: Partial<ExportFinding> = {}): ExportFinding {
  return {
    id: 'finding_1',
    title: 'SQL injection in login form',
    severity: 'high',
    status: 'open',
    cvss_score: 8.6,
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:L/A:N',
    epss_score: 0.4213,
    target: 'app.example.com',
    affected_component: 'https://app.example.com/login',
    tool: 'nuclei',
    template_id: 'sqli-error-based',
    cve_ids: ['CVE-2024-0001', 'CVE-2024-0002'],
    cwe_ids: ['CWE-89'],
    scan_id: 'scan_1',
    detected_at: '2026-01-10T08:00:00.000Z',
    frameworks: [
      { name: 'SOC 2', controls: ['CC7.1'] },
      { name: 'PCI-DSS', controls: ['6.2.4', '11.3.1'] },
    ],
    description: 'The username parameter is concatenated into an SQL statement.',
    impact: 'An attacker can read every row of the users table.',
    remediation: {
      summary: 'Use parameterized queries for every database call.',
      steps: ['Replace string concatenation with bound parameters.', 'Re-run the scan to confirm.'],
      code_example: 'db.query("SELECT * FROM users WHERE name = $1", [name]);',
      references: ['https://owasp.org/www-community/attacks/SQL_Injection'],
    },
    evidence: { request: 'POST /login HTTP/1.1', response: 'HTTP/1.1 500', screenshot_url: null },
    comments: [
      {
        id: 'comment_1',
        user: 'alice@example.com',
        text: 'Confirmed on staging.',
        created_at: '2026-01-11T10:00:00.000Z',
      },
    ],
    history: [
      {
        action: 'status_changed',
        from: 'open',
        to: 'in_progress',
        user: 'alice@example.com',
        timestamp: '2026-01-11T10:05:00.000Z',
      },
    ],
    first_seen_at: '2026-01-10T08:00:00.000Z',
    last_seen_at: '2026-02-01T08:00:00.000Z',
    times_seen: 3,
    last_scan_id: 'scan_7',
    assignee: 'alice@example.com',
    priority: 'p1',
    due_date: '2026-03-01T00:00:00.000Z',
    notes: 'Fix before the audit.',
    updated_at: '2026-02-02T09:30:00.000Z',
    ...overrides,
  };
}

/** Yields `findings` one at a time, as a database cursor would. */
export async function* streamOf<T>(findings: Iterable<T>): AsyncGenerator<T> {
  for (const finding of findings) yield finding;
}

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A promise with its resolve function, to hold a source at a point the test chooses. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
