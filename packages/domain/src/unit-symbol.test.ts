import { describe, expect, it } from 'vitest';
import { unitSymbol } from './unit-symbol.js';

describe('unitSymbol', () => {
  it.each([
    ['10^9/L', '×10⁹/L'],
    ['10^12/L', '×10¹²/L'],
    ['x10^9/L', '×10⁹/L'],
    ['umol/L', 'µmol/L'],
    ['ug/L', 'µg/L'],
    ['ug/min', 'µg/min'],
    ['uIU/mL', 'µIU/mL'],
    ['μg/L', 'µg/L'],
    ['mL/min/1.73 m^2', 'mL/min/1.73 m²'],
    ['mmol/L', 'mmol/L'],
    ['U/L', 'U/L'],
    ['mIU/L', 'mIU/L'],
    ['% of total Hb', '% of total Hb'],
    ['mg/24h or mg/mmol', 'mg/24h or mg/mmol'],
    ['fL', 'fL'],
    ['', ''],
  ])('%s → %s', (stored, shown) => {
    expect(unitSymbol(stored)).toBe(shown);
  });
});
