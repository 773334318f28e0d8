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
const normaliseCode = (s: string): string => s.replace(/\s+/g, '').toLowerCase();

/**
 * The measurand-level lookups of a catalogue. A write changes only its measurands' keys (`update`);
 * the measurands a name or code names are listed by id, so an updated catalogue answers as one built
 * from the same entries.
 */
export class MenuCatalogue {
  private readonly byName = new Map<string, MenuCatalogueEntry[]>();
  private readonly byCode = new Map<string, MenuCatalogueEntry[]>();
  readonly byId = new Map<number, MenuCatalogueEntry>();

  constructor(entries: readonly MenuCatalogueEntry[]) {
    this.update(entries);
  }

  private static keysOf(e: MenuCatalogueEntry): { names: Set<string>; codes: Set<string> } {
    return {
      names: new Set(e.names.map(normaliseMenuText).filter(Boolean)),
      codes: new Set([...e.codes.map(normaliseCode), String(e.measurandId)].filter(Boolean)),
    };
  }

  /** These measurands as they are now (new or changed) and without those `removed`. */
  update(entries: readonly MenuCatalogueEntry[], removed: readonly number[] = []): void {
    const out = (id: number) => {
      const before = this.byId.get(id);
      if (!before) return;
      const { names, codes } = MenuCatalogue.keysOf(before);
      const drop = (map: Map<string, MenuCatalogueEntry[]>, key: string) => {
        const left = (map.get(key) ?? []).filter((x) => x.measurandId !== id);
        if (left.length > 0) map.set(key, left);
        else map.delete(key);
      };
      for (const n of names) drop(this.byName, n);
      for (const c of codes) drop(this.byCode, c);
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
      const { names, codes } = MenuCatalogue.keysOf(e);
      for (const n of names) add(this.byName, n, e);
      for (const c of codes) add(this.byCode, c, e);
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

const candidatesOf = (entries: readonly MenuCatalogueEntry[], matrix: string | null): MenuCandidate[] =>
  entries.flatMap((e) =>
    e.matrices
      .filter((m) => matrix === null || normaliseMenuText(m) === normaliseMenuText(matrix))
      .map((m) => ({ measurandId: e.measurandId, displayName: e.displayName, matrix: m })),
  );

/** Every matrix of these measurands, as candidates (a matrix asked that none of them has). */
const everyMatrixOf = (entries: readonly MenuCatalogueEntry[]) => candidatesOf(entries, null);

/**
 * One line → its measurand and matrix. The code is tried first (a code is more precise than a name),
 * then the name; without a matrix the measurand's headline matrix is used (the estimates the site
 * displays). Several measurands, or a matrix the measurand has no estimate in, leave the line
 * ambiguous or unmatched with the candidates; a line that names nothing known has none here (the
 * caller adds the nearest names from its search).
 */
export function matchMenuLine(
  catalogue: MenuCatalogue,
  line: { name: string | null; code: string | null; matrix: string | null },
): MenuMatch {
  const byCode = line.code ? catalogue.ofCode(line.code) : [];
  const byName = line.name ? catalogue.ofName(line.name) : [];
  const found = byCode.length > 0 ? byCode : byName;
  const asked = line.code && byCode.length === 0 && byName.length === 0 ? 'code' : 'name';
  if (found.length === 0) {
    const what = line.name || line.code ? `No measurand has this ${asked}` : 'The line has no name or code';
    return outcome('unmatched', null, [], what);
  }
  const matrix = line.matrix?.trim() ? line.matrix.trim() : null;
  if (matrix === null) {
    const headlines = found
      .filter((e) => e.matrices.length > 0)
      .map((e) => ({ measurandId: e.measurandId, displayName: e.displayName, matrix: e.matrices[0]! }));
    if (found.length === 1) {
      return headlines.length === 1
        ? outcome('matched', headlines[0]!, [], null)
        : outcome('unmatched', null, [], 'The measurand has no estimate yet');
    }
    return outcome(
      'ambiguous',
      null,
      everyMatrixOf(found),
      `${found.length} measurands have this ${byCode.length > 0 ? 'code' : 'name'}`,
    );
  }
  const inMatrix = candidatesOf(found, matrix);
  if (inMatrix.length === 1) return outcome('matched', inMatrix[0]!, [], null);
  if (inMatrix.length > 1) {
    return outcome(
      'ambiguous',
      null,
      inMatrix,
      `${inMatrix.length} measurands have this ${byCode.length > 0 ? 'code' : 'name'} in ${matrix}`,
    );
  }
  return outcome('unmatched', null, everyMatrixOf(found), `No estimate in the matrix "${matrix}"`);
}
