import { describe, expect, it } from 'vitest';
import {
  bulkUpdateFindingsRoute,
  getFindingRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { getSlaRoute, putSlaRoute } from '../../../server/routes/settings.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The interface spec's own finding updates (issue 31, item 7): every field of an update is
 * optional and any status may follow any status, so the seed's literal requests succeed under
 * the default triage policy; `notes` stands for the justification of `accepted` and
 * `false_positive`; an organization may require a justification (`require_justification`),
 * and then a move without one is 422 naming it (docs/finding-lifecycle.md, "Accepting a risk").
 */
describe(`the seed's finding updates (${testEngine})`, () => {
  const suite = useTestApp();

  const tenantWithFindings = async (count = 1) => {
    const tenant = await factory.tenant(suite.app, {
      findings: Array.from({ length: count }, (_, i) =>
        detection({ severity: 'high', target: `h${i}.example.test` }),
      ),
    });
    return { tenant, ids: tenant.summary!.new_finding_ids };
  };

  const POLICY = { critical: 7, high: 30, medium: 90, low: 180 };

  it('accepts the bulk update {"status": "accepted", "notes": "risk accepted"} and keeps the note as the justification', async () => {
    const { tenant, ids } = await tenantWithFindings(2);
    const res = await tenant.api.call(bulkUpdateFindingsRoute, {
      body: {
        finding_ids: ids,
        update: { status: 'accepted', notes: 'risk accepted' },
      },
    });
    expect(okBody(res)).toEqual({ updated: 2, failed: [] });
    for (const id of ids) {
      const detail = okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: id } }));
      expect(detail).toMatchObject({
        status: 'accepted',
        notes: 'risk accepted',
        justification: 'risk accepted',
        justified_by: tenant.admin.email,
      });
      expect(detail.history.at(-1)).toMatchObject({
        from: 'open',
        to: 'accepted',
        justification: 'risk accepted',
        note: 'risk accepted',
      });
    }
  });

  it('accepts PATCH {"status": "false_positive", "notes": …} and PATCH with no notes at all', async () => {
    const { tenant, ids } = await tenantWithFindings(2);
    const withNotes = await tenant.api.call(updateFindingRoute, {
      params: { finding_id: ids[0]! },
      body: {
        status: 'false_positive',
        notes: 'the banner was misread',
      },
    });
    expect(okBody(withNotes)).toMatchObject({
      status: 'false_positive',
      notes: 'the banner was misread',
      justification: 'the banner was misread',
    });
    for (const status of ['false_positive', 'accepted', 'open', 'accepted'] as const) {
      const bare = await tenant.api.call(updateFindingRoute, {
        params: { finding_id: ids[1]! },
        body: { status },
      });
      expect(okBody(bare), status).toMatchObject({ status, notes: null, justification: null });
    }
    const blankNote = await tenant.api.call(updateFindingRoute, {
      params: { finding_id: ids[1]! },
      body: {
        status: 'false_positive',
        notes: '  ',
      },
    });
    expect(okBody(blankNote)).toMatchObject({ status: 'false_positive', justification: null });
  });

  it('prefers justification over notes when both are given', async () => {
    const { tenant, ids } = await tenantWithFindings();
    const res = await tenant.api.call(updateFindingRoute, {
      params: { finding_id: ids[0]! },
      body: { status: 'accepted', notes: 'talked to the owner', justification: 'behind the VPN' },
    });
    expect(okBody(res)).toMatchObject({ justification: 'behind the VPN', notes: 'talked to the owner' });
  });

  it('answers require_justification false by default, and an admin turns it on without repeating it later', async () => {
    const { tenant } = await tenantWithFindings();
    expect(okBody(await tenant.api.call(getSlaRoute))).toEqual({ ...POLICY, require_justification: false });
    const on = okBody(
      await tenant.api.call(putSlaRoute, { body: { ...POLICY, require_justification: true } }),
    );
    expect(on.require_justification).toBe(true);
    // A change of days that does not name the switch leaves it as it is.
    const days = okBody(await tenant.api.call(putSlaRoute, { body: { ...POLICY, high: 14 } }));
    expect(days).toEqual({ ...POLICY, high: 14, require_justification: true });
    await expectError(
      await tenant.api.call(putSlaRoute, { body: { ...POLICY, require_justification: 'yes' as never } }),
      422,
      'VALIDATION_ERROR',
      'require_justification',
    );
  });

  it('refuses accepted and false_positive without a justification or notes once the organization requires one', async () => {
    const { tenant, ids } = await tenantWithFindings(2);
    okBody(await tenant.api.call(putSlaRoute, { body: { ...POLICY, require_justification: true } }));
    for (const status of ['accepted', 'false_positive'] as const) {
      await expectError(
        await tenant.api.call(updateFindingRoute, { params: { finding_id: ids[0]! }, body: { status } }),
        422,
        'VALIDATION_ERROR',
        'justification',
      );
      await expectError(
        await tenant.api.call(updateFindingRoute, {
          params: { finding_id: ids[0]! },
          body: { status, notes: ' ' },
        }),
        422,
        'VALIDATION_ERROR',
        'justification',
      );
    }
    await expectError(
      await tenant.api.call(bulkUpdateFindingsRoute, {
        body: { finding_ids: ids, update: { status: 'accepted' } },
      }),
      422,
      'VALIDATION_ERROR',
      'update.justification',
    );
    // Nothing changed; other statuses need none; notes still stand for the justification.
    const detail = okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: ids[0]! } }));
    expect(detail.status).toBe('open');
    expect(
      okBody(
        await tenant.api.call(updateFindingRoute, {
          params: { finding_id: ids[0]! },
          body: { status: 'in_progress' },
        }),
      ).status,
    ).toBe('in_progress');
    const bulk = await tenant.api.call(bulkUpdateFindingsRoute, {
      body: {
        finding_ids: ids,
        update: { status: 'accepted', notes: 'risk accepted' },
      },
    });
    expect(okBody(bulk)).toEqual({ updated: 2, failed: [] });
  });

  it('keeps the policy to its organization', async () => {
    const strict = await tenantWithFindings();
    const other = await tenantWithFindings();
    okBody(await strict.tenant.api.call(putSlaRoute, { body: { ...POLICY, require_justification: true } }));
    const res = await other.tenant.api.call(updateFindingRoute, {
      params: { finding_id: other.ids[0]! },
      body: { status: 'accepted' },
    });
    expect(okBody(res).status).toBe('accepted');
  });
});
