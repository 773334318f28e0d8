import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MenuChanges } from './kept-menu-view';

describe('MenuChanges: what changed since a menu was kept (issue 32.4)', () => {
  it('says "No change since {date}" when nothing changed', () => {
    render(<MenuChanges changes={[]} since="2026-10-27T09:00:00.000Z" />);
    expect(screen.getByText('No change since 27 October 2026.')).toBeTruthy();
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('lists each change in words with before → now under "Changed since {date}"', () => {
    render(
      <MenuChanges
        since="2026-10-27T09:00:00.000Z"
        changes={[
          {
            line: 3,
            test: 'NA+ (Sodium)',
            kind: 'estimate',
            what: 'CVI',
            before: '0.6 % (version 1)',
            now: '0.8 % (version 2)',
          },
          {
            line: 3,
            test: 'NA+ (Sodium)',
            kind: 'judgement',
            what: 'Imprecision meets',
            before: 'desirable',
            now: 'optimal',
          },
          {
            line: 5,
            test: 'Urea',
            kind: 'match',
            what: 'Match',
            before: 'Urea in Serum',
            now: 'no longer matched',
          },
        ]}
      />,
    );
    const panel = screen.getByRole('region', { name: 'Changed since 27 October 2026 (3 changes)' });
    const items = within(panel)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      'Line 3, NA+ (Sodium): CVI 0.6 % (version 1) → 0.8 % (version 2)',
      'Line 3, NA+ (Sodium): Imprecision meets desirable → optimal',
      'Line 5, Urea: Match Urea in Serum → no longer matched',
    ]);
  });
});
