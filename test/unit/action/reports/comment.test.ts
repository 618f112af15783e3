import { describe, expect, it } from 'vitest';
import { commentMarker, renderComment } from '../../../../action/reports/comment.ts';
import { LINKS, completedVerdict, finding } from '../../../fixtures/action-verdicts.ts';

describe('the pull request comment', () => {
  it('starts with the marker of its target and lists new findings with links, escaped', () => {
    const reopened = finding({ id: 'a', severity: 'high', title: 'Pipe | and <b>', change: 'reopened' });
    const body = renderComment(
      completedVerdict([reopened, finding({ severity: 'critical', change: 'unchanged', title: 'Known' })], {
        mode: 'new',
      }),
      { runUrl: 'https://github.com/octo/shop/actions/runs/9' },
    );
    expect(body.split('\n')[0]).toBe(commentMarker('app.example.com'));
    expect(body).toContain('### Scanward: `app.example.com`');
    expect(body).toContain('❌ Scanward found 1 high new finding(s)');
    expect(body).toContain('**1 new finding(s)** in this scan:');
    expect(body).toContain('Pipe \\| and &lt;b&gt; (reopened)');
    expect(body).toContain(`[details](${LINKS.findingUrl('a')})`);
    expect(body).not.toContain('Known');
    expect(body).toContain('[workflow run](https://github.com/octo/shop/actions/runs/9)');
    expect(commentMarker('other.example.com')).not.toBe(commentMarker('app.example.com'));
  });

  it('says when there is nothing new, and cuts a long list', () => {
    const nothing = renderComment(completedVerdict([finding({ change: 'unchanged' })]));
    expect(nothing).toContain('No new findings in this scan.');
    expect(nothing).toContain('✅ No findings at or above the fail-on threshold (high).');
    const many = Array.from({ length: 30 }, () => finding({ severity: 'low' }));
    expect(renderComment(completedVerdict(many))).toContain('…and 5 more.');
  });

  it('leaves out new findings below report-severity and those triaged away', () => {
    const body = renderComment(
      completedVerdict(
        [
          finding({ title: 'Below', severity: 'low' }),
          finding({ title: 'Accepted', severity: 'high', status: 'accepted' }),
          finding({ title: 'Shown', severity: 'medium' }),
        ],
        { reportSeverity: 'medium' },
      ),
    );
    expect(body).toContain('Shown');
    expect(body).not.toContain('Below');
    expect(body).not.toContain('Accepted');
  });
});
