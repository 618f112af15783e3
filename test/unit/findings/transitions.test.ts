import { describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/index.ts';
import {
  ALLOWED_MOVES,
  mayMove,
  reopenSighted,
  resolveUndetected,
} from '../../../server/findings/transitions.ts';
import { FINDING_STATUSES } from '../../../server/schemas/findings.ts';

/** A database that fails the test if anything reaches it. */
const untouchable = new Proxy({} as Db, {
  get: () => {
    throw new Error('the move reached the database');
  },
  apply: () => {
    throw new Error('the move reached the database');
  },
});

describe('the table of finding moves', () => {
  it('lets a person move any status to any other', () => {
    for (const from of FINDING_STATUSES)
      for (const to of FINDING_STATUSES) expect(mayMove('person', from, to)).toBe(true);
  });

  it('lets a scan only reopen a resolved finding and resolve an open or in-progress one', () => {
    const allowed = FINDING_STATUSES.flatMap((from) =>
      FINDING_STATUSES.filter((to) => mayMove('scan', from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed.sort()).toEqual(['in_progress→resolved', 'open→resolved', 'resolved→open']);
  });

  it('never lets a scan or the timer touch a false positive, and the timer only reopens an accepted finding', () => {
    for (const to of FINDING_STATUSES) {
      expect(mayMove('scan', 'false_positive', to)).toBe(false);
      expect(mayMove('scan', 'accepted', to)).toBe(false);
      expect(mayMove('timer', 'false_positive', to)).toBe(false);
    }
    expect(Object.keys(ALLOWED_MOVES.timer)).toEqual(['accepted']);
    expect(mayMove('timer', 'accepted', 'open')).toBe(true);
    expect(mayMove('timer', 'accepted', 'resolved')).toBe(false);
  });

  it('refuses a move the table does not allow before anything is written', async () => {
    const now = new Date();
    await expect(
      resolveUndetected(untouchable, 'org_x', [{ id: 'finding_a', status: 'accepted' }], now),
    ).rejects.toThrow(/scan may not move it from accepted to resolved/);
    await expect(
      reopenSighted(untouchable, 'org_x', [{ id: 'finding_b', status: 'open' }], now),
    ).rejects.toThrow(/scan may not move it from open to open/);
  });
});
