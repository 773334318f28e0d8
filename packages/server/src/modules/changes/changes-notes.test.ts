import type { Change } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { NOTE_LINES_PER_MEASURAND, ReleaseNotes } from './changes-notes.js';

// Issue 30.2's notes, now made change by change (the release lets the event loop go between them,
// issue 44.1): grouped by measurand name, references last, at most NOTE_LINES_PER_MEASURAND lines
// each with the rest counted.

const change = (cursor: number, entity: Change['entity'], id: number, measurandId?: number): Change => ({
  cursor: String(cursor),
  at: '2026-11-29T10:00:00.000Z',
  entity,
  id,
  action: 'changed',
  ...(measurandId !== undefined ? { measurand_id: measurandId } : {}),
});
const names = {
  measurand: (id: number) => ({ 1: 'Sodium', 2: 'Albumin' })[id],
  reference: (id: number) => `Reference ${id}`,
  estimate: () => undefined,
};

describe('release notes', () => {
  it('group by measurand name, references last, the lines past the cap counted', async () => {
    const notes = new ReleaseNotes(
      { version: '2026.11.29', date: '2026-11-29', previousVersion: '2026.10.01' },
      names,
    );
    notes.add(change(1, 'reference', 7));
    for (let i = 0; i < NOTE_LINES_PER_MEASURAND + 3; i++) notes.add(change(10 + i, 'dataset', 100 + i, 1));
    notes.add(change(99, 'dataset', 5, 2));
    notes.add(change(100, 'dataset', 6, 3)); // a measurand without a name
    const text = await notes.render();
    expect(text.startsWith('# Release 2026.11.29\n\n')).toBe(true);
    expect(text).toContain(`${NOTE_LINES_PER_MEASURAND + 6} changes since release 2026.10.01, by measurand.`);
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['Albumin', 'Measurand 3', 'Sodium', 'References']);
    const sodium = text.slice(text.indexOf('## Sodium'), text.indexOf('## References'));
    expect(sodium.match(/^- /gm)).toHaveLength(NOTE_LINES_PER_MEASURAND + 1);
    expect(sodium).toContain('- and 3 more changes');
  });

  it('say so when there is nothing new', async () => {
    const text = await new ReleaseNotes(
      { version: '1', date: '2026-11-29', previousVersion: null },
      names,
    ).render();
    expect(text).toBe(
      '# Release 1\n\nThe published data of the EFLM Biological Variation Database on 2026-11-29. No changes recorded so far.\n',
    );
  });

  it('write thousands of measurands in order, letting the event loop go between a few hundred (issue 44.1)', async () => {
    const many = { ...names, measurand: (id: number) => `M${String(id).padStart(4, '0')}` };
    const notes = new ReleaseNotes({ version: '2', date: '2026-11-30', previousVersion: '1' }, many);
    for (let id = 450; id >= 1; id--) notes.add(change(id, 'dataset', id, id));
    let others = 0;
    setImmediate(() => others++);
    const text = await notes.render();
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toHaveLength(450);
    expect(headings).toEqual([...headings].sort());
    expect(headings[0]).toBe('M0001');
    // Written in three turns (200 + 200 + 50 measurands): what was waiting ran between them.
    expect(others).toBeGreaterThan(0);
  });
});
