import { readFileSync } from 'node:fs';

/**
 * Ansible playbooks that fix the most common findings. The YAML lives next to this
 * file (`<id>.yml`) so it can be linted and syntax-checked as it is; it is read once,
 * on first use.
 */

export interface Playbook {
  /** `pb_…`, stable. */
  id: string;
  title: string;
  description: string;
  /** The playbook YAML. */
  content: string;
}

interface PlaybookInfo {
  title: string;
  description: string;
}

const PLAYBOOKS: Readonly<Record<string, PlaybookInfo>> = {
  pb_redis_requirepass: {
    title: 'Require a password on Redis',
    description:
      'Sets requirepass and protected-mode yes in redis.conf (optionally bind), restarts Redis, and checks that an unauthenticated PING is refused. Needs redis_password (16+ characters, from Ansible Vault); give clients the password first.',
  },
  pb_web_security_headers: {
    title: 'Add HTTP security headers to nginx and Apache',
    description:
      'Writes the standard security headers (HSTS, X-Content-Type-Options, X-Frame-Options, Referrer-Policy, a minimal Content-Security-Policy, Permissions-Policy) into a file of their own for nginx and/or Apache on Debian or RHEL layouts, tests the configuration and reloads; removes the file again if the test fails.',
  },
  pb_tls_disable_legacy: {
    title: 'Disable TLS 1.0 and 1.1 in nginx and Apache',
    description:
      'Archives the web server configuration, rewrites every ssl_protocols / SSLProtocol line to TLS 1.2 and 1.3 only and cipher lists to Mozilla "intermediate" suites (or adds a server-wide setting when none exists), tests and reloads; restores the archive if the test fails.',
  },
  pb_postgres_scram: {
    title: 'Replace PostgreSQL trust authentication with scram-sha-256',
    description:
      'Sets password_encryption to scram-sha-256, switches pg_hba.conf network lines from trust to scram-sha-256 and local lines to peer, checks the file with pg_hba_file_rules before reloading and puts the old file back on error. Refuses to run while a login role has no SCRAM password.',
  },
};

export const PLAYBOOK_IDS: readonly string[] = Object.keys(PLAYBOOKS);

const cache = new Map<string, string>();

function contentOf(id: string): string {
  let content = cache.get(id);
  if (content === undefined) {
    content = readFileSync(new URL(`./${id}.yml`, import.meta.url), 'utf8');
    cache.set(id, content);
  }
  return content;
}

export function hasPlaybook(id: string): boolean {
  return Object.hasOwn(PLAYBOOKS, id);
}

/** The playbook, or `undefined` for an unknown id (the route answers 404). */
export function getPlaybook(id: string): Playbook | undefined {
  if (!hasPlaybook(id)) return undefined;
  const info = PLAYBOOKS[id] as PlaybookInfo;
  return { id, title: info.title, description: info.description, content: contentOf(id) };
}

export function listPlaybooks(): Playbook[] {
  return PLAYBOOK_IDS.map((id) => getPlaybook(id) as Playbook);
}
