import type { OutboxEvent } from '../events/outbox.ts';
import { consoleLink, renderMail, type Mail } from './mail.ts';

/**
 * One message per event, formatted for its target (docs/integrations.md, "Messages"):
 * Slack Block Kit, a Teams Adaptive Card, an e-mail. Pure functions of the event; every
 * message links to the console page of its finding or scan.
 */

export interface Notice {
  /** The first line: what happened. */
  headline: string;
  severity: string | undefined;
  facts: Array<[string, string]>;
  link: string;
  linkLabel: string;
}

const SEVERITY_ICON: Record<string, string> = {
  critical: ':red_circle:',
  high: ':large_orange_circle:',
  medium: ':large_yellow_circle:',
  low: ':large_blue_circle:',
  info: ':white_circle:',
};

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

export function noticeOf(event: Pick<OutboxEvent, 'type' | 'data'>, publicUrl: string): Notice | undefined {
  const d = event.data;
  if (
    event.type === 'vulnerability.found' ||
    event.type === 'vulnerability.critical' ||
    event.type === 'sla.breached'
  ) {
    const severity = str(d.severity);
    const facts: Array<[string, string]> = [
      ['Severity', severity],
      ['Target', str(d.target)],
      ['Component', str(d.affected_component)],
    ];
    if (event.type === 'sla.breached') facts.push(['Was due', str(d.due_date)]);
    else if (Array.isArray(d.cve_ids) && d.cve_ids.length > 0) facts.push(['CVE', d.cve_ids.join(', ')]);
    return {
      headline:
        event.type === 'sla.breached'
          ? `SLA missed: ${str(d.title)} is past its due date`
          : `New ${severity} finding: ${str(d.title)}`,
      severity,
      facts: facts.filter(([, v]) => v !== ''),
      link: consoleLink(publicUrl, `/findings/${str(d.id)}`),
      linkLabel: 'Open the finding',
    };
  }
  if (event.type === 'scan.failed') {
    return {
      headline: `Scan failed: ${str(d.target) || str(d.id)}`,
      severity: undefined,
      facts: [
        ['Target', str(d.target)],
        ['Error', str(d.error).slice(0, 500)],
      ].filter(([, v]) => v !== '') as Array<[string, string]>,
      link: consoleLink(publicUrl, `/scans/${str(d.id)}`),
      linkLabel: 'Open the scan',
    };
  }
  return undefined;
}

/** Slack incoming webhook body: `text` (the notification's fallback) and Block Kit blocks. */
export function slackMessage(notice: Notice) {
  const icon = notice.severity ? `${SEVERITY_ICON[notice.severity] ?? ''} ` : '';
  return {
    text: `${notice.headline} ${notice.link}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `${icon}*${escapeSlack(notice.headline)}*` } },
      {
        type: 'section',
        fields: notice.facts.map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${escapeSlack(v)}` })),
      },
      {
        type: 'actions',
        elements: [
          { type: 'button', text: { type: 'plain_text', text: notice.linkLabel }, url: notice.link },
        ],
      },
    ],
  };
}

const escapeSlack = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Teams incoming webhook (or Workflows) body: one Adaptive Card. */
export function teamsMessage(notice: Notice) {
  const attention = notice.severity === 'critical' || notice.severity === 'high' || !notice.severity;
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: notice.headline,
              weight: 'Bolder',
              size: 'Medium',
              wrap: true,
              ...(attention ? { color: 'Attention' } : {}),
            },
            { type: 'FactSet', facts: notice.facts.map(([title, value]) => ({ title, value })) },
          ],
          actions: [{ type: 'Action.OpenUrl', title: notice.linkLabel, url: notice.link }],
        },
      },
    ],
  };
}

export function noticeMail(notice: Notice, to: string): Mail {
  return renderMail(to, `[Scanward] ${notice.headline}`, {
    paragraphs: [notice.headline, ...notice.facts.map(([k, v]) => `${k}: ${v}`)],
    action: { label: notice.linkLabel, url: notice.link },
    footer: 'Sent by a Scanward notification rule of your organization.',
  });
}
