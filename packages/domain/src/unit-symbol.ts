/**
 * How a unit is shown to readers. Units are stored as typed (ASCII: "10^9/L", "umol/L"), because
 * the API and the exports hand them to scripts exactly as stored; pages show them with their proper
 * symbols (SI brochure, 9th ed., §5: the micro sign µ, powers as superscripts, × for a factor).
 * Decision 029.
 */
const SUPERSCRIPT: Record<string, string> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

const superscript = (digits: string) => [...digits].map((c) => SUPERSCRIPT[c] ?? c).join('');

/** "10^9/L" → "×10⁹/L", "umol/L" → "µmol/L", "ug/min" → "µg/min", "m^2" → "m²"; others unchanged. */
export function unitSymbol(unit: string): string {
  return (
    unit
      // A leading power of ten is a factor of the unit: "10^9/L" reads "×10⁹/L" after a number.
      .replace(/^\s*(?:x|\*|×)?\s*10\s*(?:\^|\*\*|E)\s*(-?\d+)/i, (_, p: string) => `×10${superscript(p)}`)
      .replace(/\^(-?\d+)/g, (_, p: string) => superscript(p))
      // "u" as the micro prefix only before a unit it prefixes (not "U/L", units of enzyme activity).
      .replace(/(^|[^\p{L}])u(?=(?:mol|g|L|l|IU|U|m|s|kat|eq)\b)/gu, '$1µ')
      // The micro sign typed as a Greek mu is the same prefix.
      .replace(/μ/g, 'µ')
  );
}
