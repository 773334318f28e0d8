/**
 * The match keys of a measurand's name (issue 42.1, decision 083): what stays of a name when the
 * differences laboratory systems make without meaning anything else are taken out — case, accents,
 * hyphens, word order, British or American spelling, singular or plural, the words "total", "serum"
 * and "plasma" and a unit. The rules are spelling, not names: which names a measurand goes by is data
 * (`measurand_names`, edited by curators), never code.
 */

/** Words a lab system adds to a name without naming another quantity ("Calcium, total, serum"). */
const NOISE_WORDS = new Set(['total', 'serum', 'plasma', 'units', 'unit', 'level', 'conc', 'concentration']);

/** Greek letters as laboratory names spell them out ("γ-GT" = "gamma-GT"). */
const GREEK: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  κ: 'kappa',
  λ: 'lambda',
};

/** A unit written after a name: "mmol/L", "U/L", "x10^9/L", "µmol/L", "mg/dL", "%", "fL". */
const UNIT_TOKEN =
  /^(?:%|fl|pg|sec|seconds|(?:x?10[\^*]?\d+|[mµunpfk]?(?:mol|g|iu|u|eq|kat|l|cells))?\/(?:[mµunpdk]?l|h|d|24h|min|s|kg|mmol))$/;

/**
 * British → American spelling, by word (generic rules, not names): haem/haemo → hem, oe → e
 * (oestradiol), ae → e (caeruloplasmin), -ise(d) → -ize(d), -isation → -ization, -tre → -ter,
 * sulph → sulf; in words of five letters or more (abbreviations stay as written).
 */
function americanSpelling(word: string): string {
  // Abbreviations keep their letters ("AER" is not "ER").
  if (word.length < 5) return word;
  return word
    .replace(/ae/g, 'e')
    .replace(/oe/g, 'e')
    .replace(/sulph/g, 'sulf')
    .replace(/is(ed|es|e|ing)$/, 'iz$1')
    .replace(/isation$/, 'ization')
    .replace(/([^aeiou])tre$/, '$1ter');
}

/** Singular: "triglycerides" → "triglyceride", "antibodies" → "antibody"; short words and -ss stay. */
function singular(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (/ies$/.test(word)) return word.slice(0, -3) + 'y';
  if (/(ss|us|is)$/.test(word)) return word;
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/** Lower case, no accents, Greek letters spelled out, hyphens and separators as spaces. */
function plainText(s: string): string {
  return s
    .toLowerCase()
    .replace(/[αβγδκλ]/g, (c) => ` ${GREEK[c]} `)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[‐‑‒–—_,;:"'`]/g, ' ')
    .replace(/-/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a text as compared: units and noise words dropped, spelling and number evened. */
function wordsOf(text: string): string[] {
  const raw = plainText(text).split(' ');
  const words: string[] = [];
  for (const token of raw) {
    if (!token || UNIT_TOKEN.test(token)) continue;
    for (const part of token.split('/')) {
      const w = part.replace(/[^a-z0-9%+.]/g, '').replace(/^\.+|\.+$/g, '');
      if (!w || NOISE_WORDS.has(w)) continue;
      // Numbers apart from letters: "B12" = "B-12" = "B 12", "IGF-1" = "IGF1", "25OH" = "25-OH".
      for (const piece of w.split(/(\d+)/)) if (piece) words.push(singular(americanSpelling(piece)));
    }
  }
  return words;
}

/** Words → key: each once, in alphabetical order ("cholesterol HDL" = "HDL cholesterol"). */
const keyOfWords = (words: readonly string[]): string => [...new Set(words)].sort().join(' ');

/** A name's whole key: every word of it, its parentheses opened ("Calcium (total)" → "calcium"). */
export function measurandNameKey(name: string): string {
  return keyOfWords(wordsOf(name.replace(/[()[\]]/g, ' ')));
}

/**
 * A name's words as compared, for "any word in common": the whole key's words of two letters or more
 * (a lone letter or number, as "T" and "4" of "T4", is part of a name, not a word).
 */
export function measurandNameWords(name: string): string[] {
  const key = measurandNameKey(name);
  return key ? key.split(' ').filter((w) => /[a-z].|.[a-z]/.test(w)) : [];
}

/**
 * The parenthesised part read as an abbreviation or another name: written with a capital letter or a
 * digit ("(ALP)", "(FT4)", "(B-type natriuretic peptide)"), never a qualifier in lower case
 * ("(total)", "(free)", "(hs)", "(intact)"), which names a variant and not the measurand.
 */
const isOtherName = (inner: string) => /[A-Z0-9]/.test(inner);

/**
 * The keys a name also goes by: the name without its parenthesised qualifier ("Alkaline phosphatase
 * (ALP)" → "alkaline phosphatase") and what the parentheses hold when it is another name ("alp").
 * The whole key is not among them (see `measurandNameKey`).
 */
export function measurandNamePartKeys(name: string): string[] {
  const groups = [...name.matchAll(/\(([^()]*)\)|\[([^[\]]*)\]/g)];
  if (groups.length === 0) return [];
  const keys = new Set<string>();
  const outside = measurandNameKey(name.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' '));
  if (outside) keys.add(outside);
  for (const g of groups) {
    const inner = (g[1] ?? g[2] ?? '').trim();
    if (!isOtherName(inner)) continue;
    for (const part of inner.split(/\s+or\s+/)) {
      const k = measurandNameKey(part);
      if (k) keys.add(k);
    }
  }
  keys.delete(measurandNameKey(name));
  return [...keys];
}

/** Every key of a name: the whole key first, then its parts. */
export function measurandNameKeys(name: string): string[] {
  const whole = measurandNameKey(name);
  return [...new Set([...(whole ? [whole] : []), ...measurandNamePartKeys(name)])];
}

/**
 * Matrices a laboratory names another way, by their common synonyms (spec section 3's matrices): the
 * key of the synonym → the key of the name stored.
 */
const MATRIX_SYNONYMS: Record<string, string> = {
  blood: 'blood whole',
  'blood edta': 'blood edta whole',
  edta: 'blood edta whole',
  sera: 'serum',
  saliva: 'salivary',
  'cerebrospinal fluid': 'csf',
  stool: 'fece',
  'spot urine': 'random urine',
};

/** A matrix's key: the words (serum and plasma kept), in order, synonyms resolved. */
export function matrixKey(name: string): string {
  const words = plainText(name.replace(/[()[\]]/g, ' '))
    .split(/[\s/]+/)
    .map((w) => singular(americanSpelling(w.replace(/[^a-z0-9]/g, ''))))
    .filter((w) => w && w !== 'or' && w !== 'and' && w !== 'pooled');
  const key = [...new Set(words)].sort().join(' ');
  return MATRIX_SYNONYMS[key] ?? key;
}

/**
 * The matrices a stored matrix also answers to: each side of a pooled one ("Serum/Plasma (pooled)"
 * answers "Serum" and "Plasma"), and the matrix without its parenthesised qualifier ("Whole blood
 * (EDTA)" answers "Whole blood" when nothing closer does).
 */
export function matrixPartKeys(name: string): string[] {
  const keys = new Set<string>();
  const outside = name.replace(/\([^()]*\)/g, ' ').trim();
  if (outside !== name.trim()) keys.add(matrixKey(outside));
  if (/\/|\bor\b/i.test(outside))
    for (const side of outside.split(/\/|\bor\b/i)) if (side.trim()) keys.add(matrixKey(side));
  keys.delete(matrixKey(name));
  keys.delete('');
  return [...keys];
}
