import { Octokit } from '@octokit/rest';
import type { IntegrationSettings } from './integrations.ts';
import { jsonCall, policyFetch } from './outbound-fetch.ts';

/**
 * The issue trackers (docs/integrations.md, "Tickets"): GitHub Issues through @octokit/rest
 * (GitHub's own client: typed REST methods, GitHub Enterprise Server by `api_url`), Jira Cloud through
 * REST v3 with Atlassian Document Format descriptions (e-mail + API token), Jira Server /
 * Data Center through REST v2 (personal access token). Every call goes through the receiver
 * address policy. A failure throws {@link TrackerError}; the notification worker retries.
 */

export class TrackerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface TicketContent {
  title: string;
  severity: string;
  component: string;
  evidence: string;
  remediation: string;
  link: string;
}

export interface OpenedTicket {
  key: string;
  url: string;
  externalId: string;
}

export interface TicketRef {
  key: string;
  externalId: string;
}

export interface Tracker {
  open(content: TicketContent): Promise<OpenedTicket>;
  /** Closes (GitHub) or moves to the project's done status (Jira), with a comment saying why. */
  close(ticket: TicketRef, why: string, notPlanned: boolean): Promise<void>;
  reopen(ticket: TicketRef, why: string): Promise<void>;
  /** Reads the project with the credentials (the integration's test). */
  check(): Promise<void>;
}

export function trackerOf(settings: IntegrationSettings, allowPrivate: boolean): Tracker {
  if (settings.type === 'github') return githubTracker(settings, allowPrivate);
  if (settings.type === 'jira') return jiraTracker(settings, allowPrivate);
  throw new TrackerError(0, `${settings.type} integrations do not open tickets`);
}

const markdownBody = (c: TicketContent) =>
  [
    `**Severity:** ${c.severity}`,
    `**Affected component:** ${c.component}`,
    '',
    '### Evidence',
    '```',
    c.evidence,
    '```',
    '',
    '### Remediation',
    c.remediation,
    '',
    `[Open the finding in Scanward](${c.link})`,
  ].join('\n');

function githubTracker(settings: IntegrationSettings, allowPrivate: boolean): Tracker {
  const config = settings.config as { repository: string; token: string; api_url?: string };
  const [owner, repo] = config.repository.split('/') as [string, string];
  const octokit = new Octokit({
    auth: config.token,
    baseUrl: (config.api_url ?? 'https://api.github.com').replace(/\/+$/, ''),
    userAgent: 'Scanward',
    request: { fetch: policyFetch(allowPrivate) },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      const status = (err as { status?: number }).status ?? 0;
      throw new TrackerError(
        status,
        status ? `GitHub answered ${status}` : `GitHub unreachable: ${(err as Error).message}`,
      );
    }
  };
  return {
    open: async (content) => {
      const { data } = await call(() =>
        octokit.rest.issues.create({
          owner,
          repo,
          title: content.title,
          body: markdownBody(content),
          labels: ['security', `severity:${content.severity}`],
        }),
      );
      return { key: `#${data.number}`, url: data.html_url, externalId: String(data.number) };
    },
    close: async (ticket, why, notPlanned) => {
      const issue_number = Number(ticket.externalId);
      await call(() => octokit.rest.issues.createComment({ owner, repo, issue_number, body: why }));
      await call(() =>
        octokit.rest.issues.update({
          owner,
          repo,
          issue_number,
          state: 'closed',
          state_reason: notPlanned ? 'not_planned' : 'completed',
        }),
      );
    },
    reopen: async (ticket, why) => {
      const issue_number = Number(ticket.externalId);
      await call(() => octokit.rest.issues.createComment({ owner, repo, issue_number, body: why }));
      await call(() => octokit.rest.issues.update({ owner, repo, issue_number, state: 'open' }));
    },
    check: async () => {
      await call(() => octokit.rest.repos.get({ owner, repo }));
    },
  };
}

/** Atlassian Document Format: paragraphs, a code block, and a link. */
export function adfOf(content: TicketContent) {
  const text = (t: string) => ({ type: 'text', text: t });
  const paragraph = (...parts: unknown[]) => ({ type: 'paragraph', content: parts });
  const heading = (t: string) => ({ type: 'heading', attrs: { level: 3 }, content: [text(t)] });
  return {
    version: 1,
    type: 'doc',
    content: [
      paragraph({ type: 'text', text: 'Severity: ', marks: [{ type: 'strong' }] }, text(content.severity)),
      paragraph(
        { type: 'text', text: 'Affected component: ', marks: [{ type: 'strong' }] },
        text(content.component),
      ),
      heading('Evidence'),
      { type: 'codeBlock', content: [text(content.evidence || '(none)')] },
      heading('Remediation'),
      paragraph(text(content.remediation || '(none)')),
      paragraph({
        type: 'text',
        text: 'Open the finding in Scanward',
        marks: [{ type: 'link', attrs: { href: content.link } }],
      }),
    ],
  };
}

const adfText = (t: string) => ({
  version: 1,
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: t }] }],
});

const wikiBody = (c: TicketContent) =>
  [
    `*Severity:* ${c.severity}`,
    `*Affected component:* ${c.component}`,
    '',
    'h3. Evidence',
    '{noformat}',
    c.evidence,
    '{noformat}',
    '',
    'h3. Remediation',
    c.remediation,
    '',
    `[Open the finding in Scanward|${c.link}]`,
  ].join('\n');

interface JiraTransition {
  id: string;
  name?: string;
  to?: { name?: string; statusCategory?: { key?: string } };
}

/** A status name's category, for a Jira that does not say it (by the usual names). */
const CATEGORY_BY_NAME: Array<[RegExp, string]> = [
  [/^(done|closed|resolved|fixed|complete)/i, 'done'],
  [/^(to ?do|open|reopen|backlog|new|selected)/i, 'new'],
  [/^(in progress|in review|doing)/i, 'indeterminate'],
];

const categoryOf = (t: JiraTransition): string | undefined =>
  t.to?.statusCategory?.key ??
  CATEGORY_BY_NAME.find(([pattern]) => pattern.test(t.to?.name ?? t.name ?? ''))?.[1];

function jiraTracker(settings: IntegrationSettings, allowPrivate: boolean): Tracker {
  const config = settings.config as {
    base_url: string;
    email?: string;
    api_token: string;
    project_key: string;
    issue_type?: string;
  };
  const cloud = config.email !== undefined;
  const base = config.base_url.replace(/\/+$/, '');
  const api = `${base}/rest/api/${cloud ? 3 : 2}`;
  const authorization = cloud
    ? `Basic ${Buffer.from(`${config.email}:${config.api_token}`).toString('base64')}`
    : `Bearer ${config.api_token}`;
  const request = async (method: string, path: string, body?: unknown) => {
    const answer = await jsonCall(allowPrivate, {
      url: `${api}${path}`,
      method,
      headers: { authorization },
      ...(body !== undefined ? { body } : {}),
    });
    if (answer.status < 200 || answer.status >= 300) {
      throw new TrackerError(
        answer.status,
        answer.status ? `Jira answered ${answer.status}` : `Jira unreachable: ${answer.error ?? ''}`,
      );
    }
    return answer.body as Record<string, unknown> | null;
  };
  const comment = (key: string, why: string) =>
    request('POST', `/issue/${encodeURIComponent(key)}/comment`, { body: cloud ? adfText(why) : why });
  const transitionTo = async (key: string, categories: string[]) => {
    const found = (await request('GET', `/issue/${encodeURIComponent(key)}/transitions`)) as {
      transitions?: JiraTransition[];
    } | null;
    const transitions = found?.transitions ?? [];
    for (const category of categories) {
      const match = transitions.find((t) => categoryOf(t) === category);
      if (match) {
        await request('POST', `/issue/${encodeURIComponent(key)}/transitions`, {
          transition: { id: match.id },
        });
        return;
      }
    }
    throw new TrackerError(409, `no Jira transition of ${key} leads to a ${categories.join(' or ')} status`);
  };
  return {
    open: async (content) => {
      const created = (await request('POST', '/issue', {
        fields: {
          project: { key: config.project_key },
          summary: content.title.slice(0, 250),
          issuetype: { name: config.issue_type ?? 'Task' },
          description: cloud ? adfOf(content) : wikiBody(content),
          labels: ['scanward', `severity-${content.severity}`],
        },
      })) as { id?: string | number; key?: string } | null;
      if (!created?.key) throw new TrackerError(502, 'Jira answered without an issue key');
      return {
        key: created.key,
        url: `${base}/browse/${created.key}`,
        externalId: String(created.id ?? created.key),
      };
    },
    close: async (ticket, why) => {
      await comment(ticket.key, why);
      await transitionTo(ticket.key, ['done']);
    },
    reopen: async (ticket, why) => {
      await comment(ticket.key, why);
      await transitionTo(ticket.key, ['new', 'indeterminate']);
    },
    check: async () => {
      await request('GET', `/project/${encodeURIComponent(config.project_key)}`);
    },
  };
}
