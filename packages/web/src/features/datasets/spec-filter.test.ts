import { describe, expect, it } from 'vitest';
import { matchesSpecFilter } from './spec-filter';

describe('the specifications filter (spec section 5)', () => {
  const d = { analyte_display_name: 'Cardiac troponin I (hs)', id: 42 };
  it('matches a case-insensitive substring of the name joined with the id', () => {
    expect(matchesSpecFilter(d, 'TROPONIN')).toBe(true);
    expect(matchesSpecFilter(d, '42')).toBe(true);
    expect(matchesSpecFilter(d, '(hs) 42')).toBe(true);
    expect(matchesSpecFilter(d, 'creatinine')).toBe(false);
    expect(matchesSpecFilter(d, '')).toBe(true);
  });
});
