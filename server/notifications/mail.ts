import { rootCertificates } from 'node:tls';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

/**
 * Outgoing e-mail through the operator's SMTP server (docs/email.md). `smtp://` upgrades
 * with STARTTLS whenever the server offers it (nodemailer's default), `smtps://` is TLS from
 * the first byte; `?requireTLS=true` on an `smtp://` URL refuses to send in clear when the
 * server does not offer STARTTLS (nodemailer's own URL parameter). The server's certificate is
 * always verified: against Node's store plus SCANWARD_SMTP_CA_FILE's CAs. Every mail has a plain-text and an HTML part; links point under
 * SCANWARD_PUBLIC_URL. The transport is made per send from the configuration, so nothing
 * keeps a connection (or the URL's password) around between sends.
 */

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailResult {
  ok: boolean;
  /** The SMTP reply code of a refusal. */
  code?: number;
  error?: string;
}

/** A link's paragraph and block for both parts. */
export interface MailBody {
  greeting?: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Lines after the action (a list). */
  items?: Array<{ text: string; url?: string }>;
  footer?: string;
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Renders a mail's two parts from one body, so they always say the same. */
export function renderMail(to: string, subject: string, body: MailBody): Mail {
  const text: string[] = [];
  const html: string[] = [];
  if (body.greeting) {
    text.push(body.greeting, '');
    html.push(`<p>${escape(body.greeting)}</p>`);
  }
  for (const p of body.paragraphs) {
    text.push(p, '');
    html.push(`<p>${escape(p)}</p>`);
  }
  if (body.action) {
    text.push(`${body.action.label}: ${body.action.url}`, '');
    html.push(`<p><a href="${escape(body.action.url)}">${escape(body.action.label)}</a></p>`);
  }
  if (body.items && body.items.length > 0) {
    html.push('<ul>');
    for (const item of body.items) {
      text.push(`- ${item.text}${item.url ? ` (${item.url})` : ''}`);
      html.push(
        `<li>${item.url ? `<a href="${escape(item.url)}">${escape(item.text)}</a>` : escape(item.text)}</li>`,
      );
    }
    html.push('</ul>');
    text.push('');
  }
  if (body.footer) {
    text.push('--', body.footer);
    html.push(`<p style="color:#666;font-size:12px">${escape(body.footer)}</p>`);
  }
  return {
    to,
    subject,
    text: text.join('\n'),
    html: `<!doctype html><html><body style="font-family:sans-serif">${html.join('\n')}</body></html>`,
  };
}

/** Sends one mail; a refusal or a connection failure is an answer, not an exception. */
export async function sendMail(config: NonNullable<Config['mail']>, mail: Mail): Promise<MailResult> {
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    // Node's `ca` replaces its store, so the operator's CAs are added to the bundled ones.
    ...(config.ca ? { tls: { ca: [...rootCertificates, config.ca] } } : {}),
  });
  try {
    await transport.sendMail({
      from: config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
    return { ok: true };
  } catch (err) {
    const e = err as { responseCode?: number; code?: string; message?: string };
    // The message of a connection error may quote the URL; only the code and reply are kept.
    return {
      ok: false,
      ...(e.responseCode ? { code: e.responseCode } : {}),
      error: e.responseCode ? `SMTP server answered ${e.responseCode}` : `SMTP failed (${e.code ?? 'error'})`,
    };
  } finally {
    transport.close();
  }
}

/** A console address under the public URL. */
export function consoleLink(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${path}`;
}
