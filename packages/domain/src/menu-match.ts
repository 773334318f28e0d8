import {
  matrixKey,
  matrixPartKeys,
  measurandNameKey,
  measurandNamePartKeys,
  measurandNameWords,
} from './measurand-names.js';

/**
 * Matching a line of a laboratory's test menu to a measurand (issue 32.2): by exact name, alternative
 * name or code, never guessed. A line with one measurand (and, when it names one, a matrix that
 * measurand has an estimate in) is matched; anything else is unmatched or ambiguous, with the
 * candidates to choose from.
 */
export interface MenuCatalogueEntry {
  measurandId: number;
  displayName: string;
  /** display name, full name and alternative names */
  names: readonly string[];
  /** the measurand's LOINC, NPU and SNOMED CT codes and those of its published datasets */
  codes: readonly string[];
  /** the matrices (or consolidations) with an estimate, the headline first */
  matrices: readonly string[];
}

export interface MenuCandidate {
  measurandId: number;
  displayName: string;
  matrix: string;
}

export type MenuMatchStatus = 'matched' | 'unmatched' | 'ambiguous';

export interface MenuMatch {
  status: MenuMatchStatus;
  match: MenuCandidate | null;
  /** The first `MENU_CANDIDATES_SHOWN` to choose from (by measurand id, the headline matrix first). */
  candidates: MenuCandidate[];
  /** How many there are in all: a name a hundred measurands share lists twenty and counts the rest. */
  candidatesTotal: number;
  /** Why the line is not matched, in words; null when matched. */
  why: string | null;
}

/** Case, accents, spacing and surrounding punctuation do not matter: "Créatinine " = "creatinine". */
export const normaliseMenuText = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** A code as compared: without spaces and case ("npu 01807" = "NPU01807"). */
export const normaliseCode = (s: string): string => s.replace(/\s+/g, '').toLowerCase();

/** A measurand's lookups: exact names, whole keys, part keys and words (decision 083). */
interface Keys {
  names: Set<string>;
  codes: Set<string>;
  whole: Set<string>;
  parts: Set<string>;
  words: Set<string>;
}

/**
 * The measurand-level lookups of a catalogue. A write changes only its measurands' keys (`update`);
 * the measurands a name or code names are listed by id, so an updated catalogue answers as one built
 * from the same entries.
 */
export class MenuCatalogue {
  private readonly byName = new Map<string, MenuCatalogueEntry[]>();
  private readonly byCode = new Map<string, MenuCatalogueEntry[]>();
  private readonly byWhole = new Map<string, MenuCatalogueEntry[]>();
  private readonly byPart = new Map<string, MenuCatalogueEntry[]>();
  private readonly byWord = new Map<string, MenuCatalogueEntry[]>();
  readonly byId = new Map<number, MenuCatalogueEntry>();

  constructor(entries: readonly MenuCatalogueEntry[]) {
    this.update(entries);
  }

  private static keysOf(e: MenuCatalogueEntry): Keys {
    const whole = new Set(e.names.map(measurandNameKey).filter(Boolean));
    return {
      names: new Set(e.names.map(normaliseMenuText).filter(Boolean)),
      codes: new Set([...e.codes.map(normaliseCode), String(e.measurandId)].filter(Boolean)),
      whole,
      parts: new Set(e.names.flatMap(measurandNamePartKeys).filter((k) => !whole.has(k))),
      words: new Set(e.names.flatMap(measurandNameWords)),
    };
  }

  private maps(): [keyof Omit<Keys, never>, Map<string, MenuCatalogueEntry[]>][] {
    return [
      ['names', this.byName],
      ['codes', this.byCode],
      ['whole', this.byWhole],
      ['parts', this.byPart],
      ['words', this.byWord],
    ];
  }

  /** These measurands as they are now (new or changed) and without those `removed`. */
  update(entries: readonly MenuCatalogueEntry[], removed: readonly number[] = []): void {
    const out = (id: number) => {
      const before = this.byId.get(id);
      if (!before) return;
      const keys = MenuCatalogue.keysOf(before);
      const drop = (map: Map<string, MenuCatalogueEntry[]>, key: string) => {
        const left = (map.get(key) ?? []).filter((x) => x.measurandId !== id);
        if (left.length > 0) map.set(key, left);
        else map.delete(key);
      };
      for (const [k, map] of this.maps()) for (const key of keys[k]) drop(map, key);
      this.byId.delete(id);
    };
    const add = (map: Map<string, MenuCatalogueEntry[]>, key: string, e: MenuCatalogueEntry) => {
      const list = map.get(key);
      if (!list) return void map.set(key, [e]);
      let at = list.length;
      while (at > 0 && list[at - 1]!.measurandId > e.measurandId) at--;
      list.splice(at, 0, e);
    };
    for (const id of removed) out(id);
    for (const e of entries) {
      out(e.measurandId);
      this.byId.set(e.measurandId, e);
      const keys = MenuCatalogue.keysOf(e);
      for (const [k, map] of this.maps()) for (const key of keys[k]) add(map, key, e);
    }
  }

  /** The measurands a code names (a stored code or the measurand's id). */
  ofCode(code: string): MenuCatalogueEntry[] {
    return this.byCode.get(normaliseCode(code)) ?? [];
  }

  /** The measurands whose name, full name or an alternative name is exactly this. */
  ofName(name: string): MenuCatalogueEntry[] {
    return this.byName.get(normaliseMenuText(name)) ?? [];
  }

  /**
   * The measurands a name fits, as a person reads it (decision 083), by the first of these that finds
   * any: a stored name written exactly; a stored name with the same words (case, accents, hyphens,
   * order, spelling, plural, "total", "serum", a unit aside); a stored name without its parenthesised
   * qualifier, or the abbreviation in it, that this name is (or that is this name's).
   */
  fitting(name: string): MenuCatalogueEntry[] {
    const exact = this.ofName(name);
    if (exact.length > 0) return exact;
    const whole = measurandNameKey(name);
    if (!whole) return [];
    const same = this.byWhole.get(whole) ?? [];
    if (same.length > 0) return same;
    const found = new Map<number, MenuCatalogueEntry>();
    for (const e of this.byPart.get(whole) ?? []) found.set(e.measurandId, e);
    for (const k of measurandNamePartKeys(name))
      for (const e of [...(this.byWhole.get(k) ?? []), ...(this.byPart.get(k) ?? [])])
        found.set(e.measurandId, e);
    return [...found.values()].sort((a, b) => a.measurandId - b.measurandId);
  }

  /** The measurands with a word in common with this name, the most words in common first. */
  sharingWords(name: string): MenuCatalogueEntry[] {
    const count = new Map<number, { e: MenuCatalogueEntry; n: number }>();
    for (const w of measurandNameWords(name))
      for (const e of this.byWord.get(w) ?? []) {
        const c = count.get(e.measurandId) ?? { e, n: 0 };
        c.n++;
        count.set(e.measurandId, c);
      }
    return [...count.values()].sort((a, b) => b.n - a.n || a.e.measurandId - b.e.measurandId).map((c) => c.e);
  }
}

/**
 * At most this many candidates are listed per line (decision 066): at 100× the demo data a name a
 * hundred measurands share listed every one in every matrix, most of a 200-test menu's time.
 */
export const MENU_CANDIDATES_SHOWN = 20;

/** A line's outcome with its candidates capped and counted. */
function outcome(
  status: MenuMatchStatus,
  match: MenuCandidate | null,
  all: MenuCandidate[],
  why: string | null,
): MenuMatch {
  return { status, match, candidates: all.slice(0, MENU_CANDIDATES_SHOWN), candidatesTotal: all.length, why };
}

/**
 * The matrices of a measurand a line's matrix names, by the first of these that finds any: written
 * the same; the same words (order, case, spelling, synonyms: "EDTA whole blood", "Blood"); one side
 * of a pooled matrix ("Plasma" for "Serum/Plasma (pooled)") or the matrix without its qualifier.
 */
function matricesNamed(matrices: readonly string[], asked: string): string[] {
  const text = normaliseMenuText(asked);
  const exact = matrices.filter((m) => normaliseMenuText(m) === text);
  if (exact.length > 0) return exact;
  const key = matrixKey(asked);
  const same = matrices.filter((m) => matrixKey(m) === key);
  if (same.length > 0) return same;
  const parts = new Set(matrixPartKeys(asked));
  return matrices.filter((m) => matrixPartKeys(m).includes(key) || parts.has(matrixKey(m)));
}

const candidatesOf = (entries: readonly MenuCatalogueEntry[], matrix: string | null): MenuCandidate[] =>
  entries.flatMap((e) =>
    (matrix === null ? e.matrices : matricesNamed(e.matrices, matrix)).map((m) => ({
      measurandId: e.measurandId,
      displayName: e.displayName,
      matrix: m,
    })),
  );

/** Each measurand in its headline matrix (those with an estimate), as candidates. */
const headlinesOf = (entries: readonly MenuCatalogueEntry[]): MenuCandidate[] =>
  entries
    .filter((e) => e.matrices.length > 0)
    .map((e) => ({ measurandId: e.measurandId, displayName: e.displayName, matrix: e.matrices[0]! }));

/** The line names this measurand, which has no estimate to judge it against. */
const noEstimateYet = (e: MenuCatalogueEntry) => `The measurand ${e.displayName} has no estimate yet`;

/** Every matrix of these measurands, as candidates (a matrix asked that none of them has). */
const everyMatrixOf = (entries: readonly MenuCatalogueEntry[]) => candidatesOf(entries, null);

/**
 * One line → its measurand and matrix. The code is tried first (a code is more precise than a name),
 * then the name; without a matrix the measurand's headline matrix is used (the estimates the site
 * displays). Several measurands, or a matrix the measurand has no estimate in, leave the line
 * ambiguous or unmatched with the candidates; a line that names nothing known gets the measurands
 * with a word in common (and, when none has, the caller adds the nearest names from its search).
 */
export function matchMenuLine(
  catalogue: MenuCatalogue,
  line: { name: string | null; code: string | null; matrix: string | null },
): MenuMatch {
  const byCode = line.code ? catalogue.ofCode(line.code) : [];
  const byName = line.name ? catalogue.fitting(line.name) : [];
  const found = byCode.length > 0 ? byCode : byName;
  const asked = line.code && byCode.length === 0 && byName.length === 0 ? 'code' : 'name';
  if (found.length === 0) {
    const what = line.name || line.code ? `No measurand has this ${asked}` : 'The line has no name or code';
    // Every line with a word in common with a measurand's names gets those measurands to choose from.
    const near = line.name ? headlinesOf(catalogue.sharingWords(line.name)) : [];
    return outcome('unmatched', null, near, what);
  }
  const matrix = line.matrix?.trim() ? line.matrix.trim() : null;
  if (matrix === null) {
    const headlines = headlinesOf(found);
    if (found.length === 1) {
      return headlines.length === 1
        ? outcome('matched', headlines[0]!, [], null)
        : outcome('unmatched', null, [], noEstimateYet(found[0]!));
    }
    return outcome(
      'ambiguous',
      null,
      everyMatrixOf(found),
      `${found.length} measurands have this ${byCode.length > 0 ? 'code' : 'name'}`,
    );
  }
  // The one measurand named has no estimate in any matrix: say so, not "no estimate in the matrix".
  if (found.length === 1 && found[0]!.matrices.length === 0)
    return outcome('unmatched', null, [], noEstimateYet(found[0]!));
  const inMatrix = candidatesOf(found, matrix);
  if (inMatrix.length === 1) return outcome('matched', inMatrix[0]!, [], null);
  if (inMatrix.length > 1) {
    const measurands = new Set(inMatrix.map((c) => c.measurandId)).size;
    return outcome(
      'ambiguous',
      null,
      inMatrix,
      measurands === 1
        ? `${inMatrix.length} matrices of the measurand fit "${matrix}"`
        : `${measurands} measurands have this ${byCode.length > 0 ? 'code' : 'name'} in ${matrix}`,
    );
  }
  return outcome('unmatched', null, everyMatrixOf(found), `No estimate in the matrix "${matrix}"`);
}
