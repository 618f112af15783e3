/**
 * Signing in for the web assessment (issue 33, "Authentication for web checks"):
 *
 * - form: load the log-in page, fill the user-name and password fields (found by type and
 *   name, or named by `username_field`/`password_field`), submit every other field as the
 *   page gives it (hidden anti-CSRF tokens included), follow the same-origin redirects and
 *   keep the cookies. Signed in when `logged_in_pattern` matches, or (without one) when the
 *   answer no longer shows the log-in form.
 * - headers: the given headers go with every request.
 *
 * A lost session (a redirect to the log-in page, the log-in form shown again, or
 * `logged_out_pattern`) is noticed after every answer and the scanner signs in again, at most
 * MAX_RENEWALS times. The password and header values are registered as secrets with the
 * client, so no stored request holds them.
 */
import type { FormAuthentication, WebAuthentication } from '../../schemas/web-testing.ts';
import type { WebClient, WebRequest, WebResponse } from './client.ts';
import { looksLikeHtml, parsePage, type HtmlForm } from './html.ts';
import { sensibleValue } from './parameters.ts';

/** Sign-ins after the first, per scan and target. */
export const MAX_RENEWALS = 5;
const MAX_REDIRECTS = 5;

export interface Session {
  /** Whether the scanner is signed in now. */
  signedIn: boolean;
  /** Paths never requested while signed in: the log-in form's action and page. */
  loginPaths: Set<string>;
  /** Sign-ins done (the first included). */
  signIns: number;
  /** Why the last sign-in failed, without any secret. */
  failure?: string;
}

/** Resolves `href` against `from` and keeps the path and query when it stays on `origin`. */
export type Resolve = (href: string, from: string) => string | undefined;

const pathOnly = (path: string): string => path.split('?')[0] as string;

function loginFormOf(forms: HtmlForm[], auth: FormAuthentication): HtmlForm | undefined {
  return forms.find((form) =>
    auth.password_field
      ? form.fields.some((f) => f.name === auth.password_field)
      : form.fields.some((f) => f.type === 'password'),
  );
}

function userField(form: HtmlForm, auth: FormAuthentication): string | undefined {
  if (auth.username_field) return auth.username_field;
  const texts = form.fields.filter((f) => ['text', 'email', ''].includes(f.type));
  return (texts.find((f) => /user|login|email|mail|name|account|ident/i.test(f.name)) ?? texts[0])?.name;
}

function passwordField(form: HtmlForm, auth: FormAuthentication): string | undefined {
  return auth.password_field ?? form.fields.find((f) => f.type === 'password')?.name;
}

/** Follows same-origin redirects of a GET (at most MAX_REDIRECTS). */
export async function follow(
  client: WebClient,
  first: { request: WebRequest; response: WebResponse | undefined },
  resolve: Resolve,
  options: { session?: boolean; allow?: (path: string) => boolean } = {},
): Promise<{ path: string; response: WebResponse | undefined }> {
  let path = first.request.path;
  let response = first.response;
  for (
    let hop = 0;
    hop < MAX_REDIRECTS && response && response.status >= 300 && response.status < 400;
    hop++
  ) {
    const next = response.location === undefined ? undefined : resolve(response.location, path);
    if (next === undefined || !client.allowed(next) || (options.allow && !options.allow(next))) break;
    path = next;
    response = (await client.send({ method: 'GET', path }, { session: options.session ?? true })).response;
  }
  return { path, response };
}

export class SessionKeeperImpl {
  readonly session: Session = { signedIn: false, loginPaths: new Set(), signIns: 0 };
  private loginAction: string | undefined;
  private readonly loginPage: string | undefined;
  private readonly loggedIn: RegExp | undefined;
  private readonly loggedOut: RegExp | undefined;

  constructor(
    private readonly client: WebClient,
    private readonly auth: WebAuthentication,
    private readonly resolve: Resolve,
    loginPage: string | undefined,
  ) {
    this.loginPage = loginPage;
    if (auth.type === 'form') {
      client.addSecret(auth.password);
      this.loggedIn = auth.logged_in_pattern ? safeRegExp(auth.logged_in_pattern) : undefined;
      this.loggedOut = auth.logged_out_pattern ? safeRegExp(auth.logged_out_pattern) : undefined;
      if (loginPage) this.session.loginPaths.add(pathOnly(loginPage));
    } else {
      for (const [name, value] of Object.entries(auth.headers)) {
        client.addSecretHeader(name);
        client.addSecret(value);
        for (const part of value.split(/;\s*/)) {
          const cookieValue = part.split('=')[1];
          if (name.toLowerCase() === 'cookie' && cookieValue) client.addSecret(cookieValue);
        }
      }
      this.session.signedIn = true;
    }
    client.setKeeper({
      headers: () => (auth.type === 'headers' ? auth.headers : {}),
      lost: (request, response) => this.lost(request, response),
      renew: () => this.renew(),
    });
  }

  /** The password, when the scan signs in with one (filled in password fields so a change-password form changes nothing). */
  get password(): string | undefined {
    return this.auth.type === 'form' ? this.auth.password : undefined;
  }

  private showsLoginForm(body: string, from: string): boolean {
    if (!this.loginAction || !/type\s*=\s*["']?password/i.test(body)) return false;
    const forms = parsePage(body).forms.filter((f) => f.fields.some((field) => field.type === 'password'));
    return forms.some((form) => {
      const action = this.resolve(form.action, from);
      return action !== undefined && pathOnly(action) === pathOnly(this.loginAction!);
    });
  }

  lost(request: WebRequest, response: WebResponse): boolean {
    if (!this.session.signedIn) return false;
    if (this.session.loginPaths.has(pathOnly(request.path))) return false;
    if (this.loggedOut?.test(response.body)) return true;
    if (this.auth.type !== 'form') return false;
    if (response.status >= 300 && response.status < 400 && response.location) {
      const to = this.resolve(response.location, request.path);
      if (to !== undefined && this.session.loginPaths.has(pathOnly(to))) return true;
    }
    return (
      looksLikeHtml(response.headers.get('content-type'), response.body) &&
      this.showsLoginForm(response.body, request.path)
    );
  }

  async renew(): Promise<boolean> {
    if (this.auth.type !== 'form') return false;
    if (this.session.signIns > MAX_RENEWALS) return false;
    this.session.signedIn = false;
    return this.signIn();
  }

  /** Signs in through the form; true when signed in. */
  async signIn(): Promise<boolean> {
    if (this.auth.type !== 'form') return true;
    const auth = this.auth;
    if (!this.loginPage) {
      this.session.failure = 'the log-in URL is not on this service';
      return false;
    }
    this.session.signIns += 1;
    this.client.clearCookies();
    const page = await follow(
      this.client,
      await this.client.send({ method: 'GET', path: this.loginPage }, { session: false }),
      this.resolve,
      { session: false },
    );
    const body = page.response?.body ?? '';
    const form = loginFormOf(parsePage(body).forms, auth);
    if (!form) {
      this.session.failure = `no log-in form with a password field at ${this.loginPage}`;
      return false;
    }
    const action = this.resolve(form.action, page.path);
    if (action === undefined) {
      this.session.failure = 'the log-in form posts to another origin';
      return false;
    }
    this.loginAction = action;
    this.session.loginPaths.add(pathOnly(action));
    this.session.loginPaths.add(pathOnly(page.path));
    const user = userField(form, auth);
    const pass = passwordField(form, auth);
    const fields: Array<[string, string]> = [];
    let submitted = false;
    for (const field of form.fields) {
      if (field.type === 'submit') {
        if (submitted) continue;
        submitted = true;
      }
      if (field.name === user) fields.push([field.name, auth.username]);
      else if (field.name === pass) fields.push([field.name, auth.password]);
      else if (field.type === 'checkbox' && !/remember/i.test(field.name)) continue;
      else fields.push([field.name, sensibleValue(field, undefined)]);
    }
    const encoded = new URLSearchParams(fields).toString();
    const request: WebRequest =
      form.method === 'POST'
        ? { method: 'POST', path: action, contentType: 'application/x-www-form-urlencoded', body: encoded }
        : { method: 'GET', path: `${pathOnly(action)}?${encoded}` };
    const answer = await this.client.send(request, { session: false });
    const landed = await follow(this.client, answer, this.resolve, { session: false });
    const landedBody = landed.response?.body ?? '';
    const ok =
      landed.response !== undefined &&
      landed.response.status < 400 &&
      (this.loggedIn
        ? this.loggedIn.test(landedBody)
        : !this.showsLoginForm(landedBody, landed.path) &&
          !this.session.loginPaths.has(pathOnly(landed.path)));
    this.session.signedIn = ok;
    if (!ok)
      this.session.failure = `signing in at ${this.loginPage} did not succeed (the log-in form is shown again)`;
    else delete this.session.failure;
    this.landing = landed.path;
    return ok;
  }

  /** The page the sign-in landed on. */
  landing: string | undefined;
}

/** A user's pattern; one that does not compile never matches. */
function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'i');
  } catch {
    return undefined;
  }
}
