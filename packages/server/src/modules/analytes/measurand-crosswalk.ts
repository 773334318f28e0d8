import { createHash } from 'node:crypto';
import {
  CROSSWALK_HEADER,
  CROSSWALK_MAX_LINES,
  type CrosswalkLine,
  type CrosswalkPreview,
} from '@bvdb/contract';
import { codeProblem, codeSystemOf, CROSSWALK_COLUMNS, LOINC_NOTICE, parseCsv } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import type { CodeValues } from './measurand-codes.repository.js';

// The crosswalk file read and weighed against the stored codes (decision 093): no I/O here, so the
// preview and the confirm (inside its transaction) make the same plan from the same state.

/** What the stored codes and names are, as the plan needs them. */
export interface CrosswalkState {
  codes: (CodeValues & { id: number; analyteId: number })[];
  measurands: { id: number; name: string }[];
  matrices: { id: number; name: string }[];
}

/** What confirming does: codes added to a measurand, stored codes changed. */
export interface CrosswalkAction {
  analyteId: number;
  /** The stored code's id for a change; null for an add. */
  id: number | null;
  values: CodeValues;
}

const LIMITS = { display: 500, ucum_unit: 60, source: 1000, code: 40 } as const;

/** A cell as written: trimmed, the apostrophe an export puts before a formula-like cell taken off. */
const cellOf = (raw: string | undefined) => (raw ?? '').trim().replace(/^'(?=[=+\-@])/, '');
const nullable = (s: string) => (s === '' ? null : s);
const key = (system: string, code: string) => `${system}|${code}`;

/** The file's rows, or a 400 saying why it is not a crosswalk file. */
export function readCrosswalkRows(text: string): { line: number; cells: string[] }[] {
  if (text.includes('\u0000')) throw new AppError('bad_request', 'The file is not text (it holds NUL bytes)');
  const table = parseCsv(text);
  const [head, ...body] = table;
  const header = (head ?? []).map((h) => h.trim().toLowerCase());
  if (header.length !== CROSSWALK_COLUMNS.length || header.some((h, i) => h !== CROSSWALK_COLUMNS[i]))
    throw new AppError(
      'bad_request',
      `This is not a crosswalk file: its first line must be the header ${CROSSWALK_HEADER}, as the export writes it`,
      { fields: [{ path: 'text', message: `The header must be ${CROSSWALK_HEADER}` }] },
    );
  const rows = body
    .map((cells, i) => ({ line: i + 2, cells }))
    .filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (rows.length === 0) throw new AppError('bad_request', 'The file has its header and no code');
  if (rows.length > CROSSWALK_MAX_LINES)
    throw new AppError(
      'bad_request',
      `The file has ${rows.length} codes; one import takes at most ${CROSSWALK_MAX_LINES}: split it`,
    );
  return rows;
}

/**
 * A lookup by name: as written first, then whatever the case (measurand names are unique whatever
 * the case; two matrices, "Whole blood" and "Whole Blood", differ only by it).
 */
function byName<T extends { name: string }>(things: T[]): (name: string) => T | undefined {
  const exact = new Map(things.map((t) => [t.name, t]));
  const folded = new Map<string, T>();
  for (const t of things) if (!folded.has(t.name.toLowerCase())) folded.set(t.name.toLowerCase(), t);
  return (name) => exact.get(name) ?? folded.get(name.toLowerCase());
}

/** What changes between a stored code and a line, in words; empty when nothing does. */
function differences(
  stored: CodeValues,
  line: CodeValues,
  matrixName: (id: number | null) => string | null,
): string[] {
  const out: string[] = [];
  const show = (v: string | null) => (v === null ? '(none)' : `"${v}"`);
  if (stored.display !== line.display) out.push(`display ${show(stored.display)} → ${show(line.display)}`);
  if (stored.matrixId !== line.matrixId)
    out.push(`matrix ${show(matrixName(stored.matrixId))} → ${show(matrixName(line.matrixId))}`);
  if (stored.ucumUnit !== line.ucumUnit) out.push(`unit ${show(stored.ucumUnit)} → ${show(line.ucumUnit)}`);
  if (stored.source !== line.source) out.push('source');
  return out;
}

/**
 * Each line of the file weighed against the stored codes: added, changed, unchanged or refused with
 * its message; the actions confirming takes, and their digest (the preview's `plan`).
 */
export function planCrosswalk(
  rows: { line: number; cells: string[] }[],
  state: CrosswalkState,
): CrosswalkPreview & { actions: CrosswalkAction[] } {
  const measurandByName = byName(state.measurands);
  const measurandName = new Map(state.measurands.map((m) => [m.id, m.name]));
  const matrixByName = byName(state.matrices);
  const matrixName = new Map(state.matrices.map((m) => [m.id, m.name]));
  const stored = new Map(state.codes.map((c) => [key(c.system, c.code), c]));
  const seen = new Map<string, number>();
  const actions: CrosswalkAction[] = [];

  const lines = rows.map(({ line, cells }): CrosswalkLine => {
    const [systemCell, code, display, measurand, matrix, unit, source] = CROSSWALK_COLUMNS.map((_, i) =>
      cellOf(cells[i]),
    ) as [string, string, string, string, string, string, string];
    const system = codeSystemOf(systemCell);
    const found = measurandByName(measurand);
    const matrixRow = matrix === '' ? null : matrixByName(matrix);
    const out: CrosswalkLine = {
      line,
      status: 'refused',
      system: system ?? systemCell,
      code,
      display: nullable(display),
      measurand,
      measurand_id: found?.id ?? null,
      matrix: matrixRow ? matrixRow.name : nullable(matrix),
      ucum_unit: nullable(unit),
      source: nullable(source),
      message: null,
    };
    const refuse = (message: string) => ({ ...out, message });

    if (
      cells.length > CROSSWALK_COLUMNS.length &&
      cells.slice(CROSSWALK_COLUMNS.length).some((c) => c.trim())
    )
      return refuse(`The line has ${cells.length} cells; the header has ${CROSSWALK_COLUMNS.length}`);
    if (!system)
      return refuse(
        systemCell === ''
          ? 'Say the code system (LOINC, NPU or SNOMED CT, or its URI)'
          : `"${systemCell}" is not a code system bvdb knows: use LOINC, NPU or SNOMED CT (or its URI)`,
      );
    if (code === '') return refuse('The code is empty');
    if (code.length > LIMITS.code) return refuse(`A code must be at most ${LIMITS.code} characters`);
    const problem = codeProblem(system, code);
    if (problem) return refuse(problem);
    for (const [field, value] of [
      ['display', display],
      ['ucum_unit', unit],
      ['source', source],
    ] as const)
      if (value.length > LIMITS[field])
        return refuse(`The ${field} must be at most ${LIMITS[field]} characters`);
    if (measurand === '') return refuse('Say the measurand (its name as bvdb shows it)');
    if (!found) return refuse(`No measurand is called "${measurand}"`);
    if (matrix !== '' && !matrixRow) return refuse(`No matrix is called "${matrix}"`);
    const k = key(system, code);
    const earlier = seen.get(k);
    if (earlier !== undefined)
      return refuse(`${k} is on line ${earlier} too: a code names one measurand, keep one line`);
    seen.set(k, line);

    const values: CodeValues = {
      system,
      code,
      display: nullable(display),
      matrixId: matrixRow?.id ?? null,
      ucumUnit: nullable(unit),
      source: nullable(source),
    };
    const have = stored.get(k);
    if (!have) {
      actions.push({ analyteId: found.id, id: null, values });
      return { ...out, status: 'add' };
    }
    if (have.analyteId !== found.id)
      return refuse(
        `${k} is already a code of another measurand: ${measurandName.get(have.analyteId) ?? '?'} (id ${have.analyteId}). A code names one measurand; remove it there first.`,
      );
    // Scales are never merged (decision 093): a code keeps the scale it names; another scale is another code.
    if (have.ucumUnit !== null && values.ucumUnit !== have.ucumUnit)
      return refuse(
        `${k} names the scale ${have.ucumUnit}: a code names one scale, so a line for ${values.ucumUnit ?? 'no unit'} needs that scale’s own code (correct a mistaken unit on the measurand’s page)`,
      );
    const changed = differences(have, values, (id) => (id === null ? null : (matrixName.get(id) ?? null)));
    if (changed.length === 0) return { ...out, status: 'unchanged' };
    actions.push({ analyteId: found.id, id: have.id, values });
    return { ...out, status: 'change', message: `Changes ${changed.join(', ')}` };
  });

  const counts = { add: 0, change: 0, unchanged: 0, refused: 0 };
  for (const l of lines) counts[l.status]++;
  // The digest names what confirming does and what it is done to (the stored rows' values too), so
  // a confirm after someone else's change is refused rather than applied to codes the curator never saw.
  const touched = actions.map((a) => ({
    ...a,
    before: a.id === null ? null : stored.get(key(a.values.system, a.values.code)),
  }));
  const plan = createHash('sha256').update(JSON.stringify(touched)).digest('hex').slice(0, 32);
  return { lines, counts, plan, notice: LOINC_NOTICE, actions };
}
