import { describe, expect, it } from 'vitest';
import { knowledgeForCheck } from '../../../../server/remediation/knowledge/index.ts';
import { CHECKS } from '../../../../server/scanner/check-registry.ts';

/** The network-service, credential and TLS checks of docs/checks.md. */
const DOCUMENTED = [
  'mysql-empty-root-password',
  'postgresql-default-password',
  'rabbitmq-default-guest-amqp',
  'rabbitmq-default-guest-management',
  'ftp-anonymous-login',
  'erlang-distribution-exposed',
  'ssh-weak-algorithms',
  'ssh-protocol-version-1',
  'smtp-open-relay',
  'tls-weak-cipher',
  'tls-certificate-weak-key',
  'tls-certificate-not-yet-valid',
  'tls-certificate-hostname-mismatch',
  'tls-certificate-chain-incomplete',
];

describe('the network-service and TLS checks', () => {
  it('are all registered, each with remediation written for it', () => {
    const ids = CHECKS.map((check) => check.id);
    for (const id of DOCUMENTED) {
      expect(ids).toContain(id);
      expect(knowledgeForCheck(id), id).toBeDefined();
    }
  });

  it('are all listed in docs/checks.md', async () => {
    const { readFile } = await import('node:fs/promises');
    const doc = await readFile(new URL('../../../../docs/checks.md', import.meta.url), 'utf8');
    for (const id of DOCUMENTED) expect(doc, id).toContain(`\`${id}\``);
  });
});
