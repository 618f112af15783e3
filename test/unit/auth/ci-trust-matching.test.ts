import { describe, expect, it } from 'vitest';
import { globMatches, identityOf, mismatch } from '../../../server/auth/ci-trust.ts';
import type { CiTrustPolicyRow } from '../../../server/auth/ci-trust-policies.repository.ts';

/** The matching rules of trust policies (docs/ci-trust.md): the glob, GitLab's claim names, forks. */

const policy = (conditions: Record<string, string>, allowForks = false): CiTrustPolicyRow => ({
  id: 'citp_x',
  org_id: 'org_x',
  name: 'x',
  issuer: 'https://token.actions.githubusercontent.com',
  audience: 'https://scanward.example.test',
  conditions,
  permissions: ['read:scans'],
  allow_forks: allowForks,
  created_by: 'user_x',
  created_at: new Date(0),
  deleted_at: null,
});

describe('trust policy globs', () => {
  it('reads * within a path segment, ** across segments, ? as one character, the rest literally', () => {
    expect(globMatches('acme/*', 'acme/web')).toBe(true);
    expect(globMatches('acme/*', 'acme/web/x')).toBe(false);
    expect(globMatches('acme/*', 'acmex/web')).toBe(false);
    expect(globMatches('refs/heads/release/**', 'refs/heads/release/1.2/hotfix')).toBe(true);
    expect(globMatches('refs/pull/*/merge', 'refs/pull/12/merge')).toBe(true);
    expect(globMatches('refs/pull/*/merge', 'refs/pull/12/head')).toBe(false);
    expect(globMatches('v?', 'v1')).toBe(true);
    expect(globMatches('v?', 'v/')).toBe(false);
    // Regular-expression characters are literal: `.` is a dot, `+` a plus, `[` a bracket.
    expect(globMatches('acme/web.js', 'acme/webxjs')).toBe(false);
    expect(globMatches('a+b', 'aab')).toBe(false);
    expect(globMatches('[ab]', 'a')).toBe(false);
    expect(globMatches('[ab]', '[ab]')).toBe(true);
    // The whole value must match.
    expect(globMatches('acme/web', 'acme/web2')).toBe(false);
    expect(globMatches('main', 'refs/heads/main')).toBe(false);
  });
});

describe('claims', () => {
  it("reads GitLab's claims under the names policies use", () => {
    expect(
      identityOf({
        sub: 'project_path:acme/web:ref_type:branch:ref:main',
        project_path: 'acme/web',
        namespace_path: 'acme',
        ref: 'main',
        ref_type: 'branch',
        pipeline_source: 'push',
        environment: 'production',
        ci_config_ref_uri: 'gitlab.example.com/acme/web//.gitlab-ci.yml@refs/heads/main',
      }),
    ).toEqual({
      sub: 'project_path:acme/web:ref_type:branch:ref:main',
      repository: 'acme/web',
      repository_owner: 'acme',
      ref: 'refs/heads/main',
      event_name: 'push',
      environment: 'production',
      job_workflow_ref: 'gitlab.example.com/acme/web//.gitlab-ci.yml@refs/heads/main',
    });
    expect(identityOf({ ref: 'v1.0', ref_type: 'tag' }).ref).toBe('refs/tags/v1.0');
  });

  it('fails a condition on a claim the token lacks, and refuses fork-capable events unless allowed', () => {
    expect(mismatch(policy({ environment: 'production' }), { repository: 'acme/web' })).toMatch(
      'no environment claim',
    );
    const target = { repository: 'acme/web', event_name: 'pull_request_target' };
    expect(mismatch(policy({ repository: 'acme/web' }), target)).toMatch(/fork/);
    expect(mismatch(policy({ repository: 'acme/web' }, true), target)).toBeUndefined();
    expect(mismatch(policy({ repository: 'acme/web' }), { ...target, event_name: 'workflow_run' })).toMatch(
      /fork/,
    );
    expect(mismatch(policy({ repository: 'acme/web' }), { ...target, event_name: 'push' })).toBeUndefined();
  });
});
