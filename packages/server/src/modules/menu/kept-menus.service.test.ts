import { menuChanges, type MenuKeptTest } from '@bvdb/domain';
import { describe, expect, it } from 'vitest';
import { changesInTurns } from './kept-menus.service.js';

const test = (line: number, rcvUp: number): MenuKeptTest => ({
  line,
  label: `Test ${line}`,
  match: { measurand_id: 7, display_name: 'Sodium', matrix: 'Serum' },
  cvi: { estimate_id: 11, version: 1, median: 0.6, lower: 0.5, upper: 0.7, n: 12 },
  cvg: null,
  specs: null,
  aps_met: null,
  sigma: null,
  rcv: { up: rcvUp, down: -2 },
  ii: 0.86,
  ii_with_cva: null,
  prri_useful: null,
});

describe('opening a kept menu of many tests (decision 070)', () => {
  const kept = Array.from({ length: 1000 }, (_, i) => test(i + 1, 2.1));
  const today = Array.from({ length: 1000 }, (_, i) => test(i + 1, i % 3 === 0 ? 2.6 : 2.1));

  it('lists the same changes, in the same order, as comparing the whole menu at once', async () => {
    const changes = await changesInTurns(kept, today, 'desirable');
    expect(changes.length).toBeGreaterThan(300);
    expect(changes).toEqual(menuChanges(kept, today, 'desirable'));
  });

  it('lets other work run while it compares (the event loop is not held for the whole menu)', async () => {
    let otherWorkRan = false;
    const comparing = changesInTurns(kept, today, 'desirable');
    setImmediate(() => (otherWorkRan = true));
    await comparing;
    expect(otherWorkRan).toBe(true);
  });
});
