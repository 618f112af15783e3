import { describe, expect, it } from 'vitest';
import { fromActionsContext, runUrl, splitRepository } from '../../../../action/github/context.ts';

describe('the workflow context', () => {
  const actions = {
    eventName: 'pull_request',
    payload: { pull_request: { number: 7, html_url: 'https://github.com/octo/shop/pull/7' } },
    sha: 'a'.repeat(40),
    ref: 'refs/pull/7/merge',
    runId: 99,
    runAttempt: 2,
    job: 'scan',
    action: 'scanward',
    apiUrl: 'https://ghe.example.com/api/v3/',
    serverUrl: 'https://ghe.example.com',
  };
  type Context = Parameters<typeof fromActionsContext>[0];
  const of = (overrides: Record<string, unknown>) => ({ ...actions, ...overrides }) as unknown as Context;

  it('reads the pull request, run and GHES API address from @actions/github', () => {
    expect(fromActionsContext(of({}), { GITHUB_REPOSITORY: 'octo/shop' })).toEqual({
      eventName: 'pull_request',
      repository: 'octo/shop',
      sha: 'a'.repeat(40),
      ref: 'refs/pull/7/merge',
      runId: '99',
      runAttempt: '2',
      job: 'scan',
      step: 'scanward',
      serverUrl: 'https://ghe.example.com',
      apiUrl: 'https://ghe.example.com/api/v3',
      pullRequest: { number: 7, url: 'https://github.com/octo/shop/pull/7' },
    });
  });

  it('has no pull request on push, merge_group or schedule events, and no run outside a runner', () => {
    for (const eventName of ['push', 'merge_group', 'schedule']) {
      expect(fromActionsContext(of({ eventName }), {}).pullRequest).toBeUndefined();
    }
    const outside = fromActionsContext(
      of({ eventName: '', payload: {}, runId: NaN, runAttempt: NaN, apiUrl: '', serverUrl: '' }),
      {},
    );
    expect(outside).toMatchObject({
      runId: undefined,
      runAttempt: undefined,
      apiUrl: 'https://api.github.com',
    });
  });
});

describe('repository and run links', () => {
  it('splits owner/repo and links the workflow run, only when both are known', () => {
    expect(splitRepository('octo/shop')).toEqual({ owner: 'octo', repo: 'shop' });
    expect(splitRepository('not a repo')).toBeUndefined();
    expect(runUrl({ serverUrl: 'https://github.com', apiUrl: '', repository: 'octo/shop', runId: '9' })).toBe(
      'https://github.com/octo/shop/actions/runs/9',
    );
    expect(runUrl({ serverUrl: 'https://github.com', apiUrl: '', repository: 'octo/shop' })).toBeUndefined();
  });
});
