import {
  DATASET_FIELD_LABELS,
  DATASET_FIELDS,
  DatasetInputSchema,
  normaliseDoi,
  type DatasetFieldName,
  type DatasetInput,
  type UploadCellProblem,
} from '@bvdb/contract';
import type { CellValue, Sheet } from './upload-sheet.js';
import { columnOfHeader, type ListName, type UploadColumn } from './upload-columns.js';

const ONE_OF: Record<ListName, string> = {
  measurands: 'measurand',
  matrices: 'matrix',
  states: 'state of well-being',
  ethnicities: 'ethnicity',
  diseases: 'disease state',
  units: 'unit',
  methods: 'analytical principle method',
};

/** What the cells may name: the lookup tables and the references, as they are now. */
export interface UploadCatalogue {
  lists: Record<ListName, readonly { id: number; name: string }[]>;
  references: readonly { id: number; title: string; doi: string | null; pmid: string | null }[];
}

export interface CheckedRow {
  row: number;
  /** The payload as the form would send it (names turned into ids). */
  payload: Record<string, unknown>;
  /** The validated payload when the row is valid. */
  input: DatasetInput | null;
  /** How the row's measurand, matrix and reference were understood (for the preview). */
  shown: { measurand: string | null; matrix: string | null; reference: string | null };
  errors: UploadCellProblem[];
}

const problem = (row: number, field: DatasetFieldName | null, message: string, column?: string) => ({
  row,
  column: column ?? (field ? DATASET_FIELD_LABELS[field] : 'file'),
  field,
  message,
});

const text = (v: CellValue): string =>
  v === null ? '' : v instanceof Date ? v.toISOString() : typeof v === 'string' ? v.trim() : String(v);

/** A number as typed: a numeric cell, or text that reads as one (a comma as decimal mark too). */
function numberOf(v: CellValue): unknown {
  if (v === null) return null;
  if (typeof v === 'number') return v;
  const t = text(v);
  if (t === '') return null;
  const n = Number(t.replace(/^(\d+),(\d+)$/, '$1.$2'));
  return Number.isFinite(n) ? n : t;
}

/** A time cell: text like 07:00, or the fraction of a day a spreadsheet keeps for a time. */
function timeOf(v: CellValue): unknown {
  const pad = (n: number) => String(n).padStart(2, '0');
  if (v instanceof Date) return `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}`;
  if (typeof v === 'number' && v >= 0 && v < 1) {
    const minutes = Math.round(v * 24 * 60);
    return `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;
  }
  const t = text(v);
  return t === '' ? null : t.replace(/^(\d):/, '0$1:');
}

function flagOf(v: CellValue): unknown {
  if (v === null || v === false || v === 0) return 0;
  if (v === true || v === 1) return 1;
  const t = text(v).toLowerCase();
  if (['', 'no', 'n', '0', 'false'].includes(t)) return 0;
  if (['yes', 'y', '1', 'true'].includes(t)) return 1;
  return text(v);
}

/** Names and ids of one lookup table, found case-insensitively. */
function finder(list: readonly { id: number; name: string }[]) {
  const byName = new Map(list.map((e) => [e.name.trim().toLowerCase(), e]));
  const byId = new Map(list.map((e) => [e.id, e]));
  return (v: CellValue): { id: number; name: string } | undefined => {
    const t = text(v);
    if (/^\d+$/.test(t)) return byId.get(Number(t)) ?? byName.get(t);
    return byName.get(t.toLowerCase());
  };
}

const PMID =
  /^(?:pmid\s*:?\s*|https?:\/\/(?:www\.)?pubmed\.ncbi\.nlm\.nih\.gov\/|https?:\/\/www\.ncbi\.nlm\.nih\.gov\/pubmed\/)(\d{1,9})\/?$/i;
const DOI = /^10\.\d{4,9}\/\S+$/;

/** The reference a cell names: by DOI, by PubMed id (PMID:n) or by bvdb id. */
function referenceFinder(refs: UploadCatalogue['references']) {
  const byId = new Map(refs.map((r) => [r.id, r]));
  const byDoi = new Map(refs.filter((r) => r.doi).map((r) => [normaliseDoi(r.doi!).toLowerCase(), r]));
  const byPmid = new Map(refs.filter((r) => r.pmid).map((r) => [r.pmid!, r]));
  return (v: CellValue): { id: number; title: string } | string => {
    const t = text(v);
    const pmid = PMID.exec(t)?.[1];
    if (pmid)
      return byPmid.get(pmid) ?? `No reference in bvdb has the PubMed id ${pmid}: add the reference first.`;
    const doi = normaliseDoi(t);
    if (DOI.test(doi)) {
      return (
        byDoi.get(doi.toLowerCase()) ?? `No reference in bvdb has the DOI ${doi}: add the reference first.`
      );
    }
    if (/^\d+$/.test(t)) {
      const found = byId.get(Number(t));
      if (found) return found;
      const hint = byPmid.has(t) ? ` (a reference has the PubMed id ${t}: write PMID:${t})` : '';
      return `There is no reference with id ${t}${hint}.`;
    }
    return `"${t}" is neither a DOI (10.xxxx/…), a PubMed id (PMID:12345678) nor a bvdb reference id.`;
  };
}

/** The columns of a sheet: each header → its column, with the file's problems (unknown, repeated). */
export function columnsOfSheet(headers: string[]): {
  columns: (UploadColumn | null)[];
  problems: UploadCellProblem[];
} {
  const problems: UploadCellProblem[] = [];
  const seen = new Set<string>();
  const columns = headers.map((h) => {
    if (h === '') return null;
    const column = columnOfHeader(h);
    if (!column) {
      problems.push(problem(0, null, `Unknown column "${h}": use the template's headers.`, h));
      return null;
    }
    if (seen.has(column.field)) {
      problems.push(problem(0, column.field, `The column "${h}" appears twice.`, h));
      return null;
    }
    seen.add(column.field);
    return column;
  });
  for (const required of ['analyte_id', 'reference_id', 'unique_identifier', 'matrix_id'] as const) {
    if (!seen.has(required)) {
      problems.push(
        problem(0, required, `The column "${DATASET_FIELD_LABELS[required]}" is missing: use the template.`),
      );
    }
  }
  return { columns, problems };
}

/**
 * Every row of an uploaded sheet as the form's payload, checked with the form's own schema (the
 * contract's `DatasetInputSchema`: same rules, same messages), each problem placed on its cell.
 * Names from the lookup tables become their ids; a name that matches nothing is that cell's problem
 * (and the schema's "required" message for the same cell is not repeated).
 */
export function checkRows(
  sheet: Sheet,
  catalogue: UploadCatalogue,
): { rows: CheckedRow[]; problems: UploadCellProblem[] } {
  const { columns, problems } = columnsOfSheet(sheet.headers);
  const find = Object.fromEntries(
    (Object.keys(catalogue.lists) as ListName[]).map((name) => [name, finder(catalogue.lists[name])]),
  ) as Record<ListName, ReturnType<typeof finder>>;
  const findReference = referenceFinder(catalogue.references);

  const rows = sheet.rows.map(({ row, cells }): CheckedRow => {
    const errors: UploadCellProblem[] = [];
    const payload: Record<string, unknown> = {};
    const shown: CheckedRow['shown'] = { measurand: null, matrix: null, reference: null };
    columns.forEach((column, i) => {
      if (!column) return;
      const value = cells[i] ?? null;
      const { field } = column;
      const kind = DATASET_FIELDS[field].kind;
      const blank = text(value) === '';
      if (field === 'reference_id') {
        if (blank) return;
        const found = findReference(value);
        if (typeof found === 'string') {
          errors.push(problem(row, field, found));
          shown.reference = text(value);
        } else {
          payload[field] = found.id;
          shown.reference = `${found.id}: ${found.title}`;
        }
        return;
      }
      const lookup = column.list && 'lookup' in column.list ? column.list.lookup : undefined;
      if (lookup && field === 'disease_state_ids') {
        const names = text(value)
          .split(/[;\n]+/)
          .map((s) => s.trim())
          .filter(Boolean);
        const ids: number[] = [];
        for (const name of names) {
          const found = find[lookup](name);
          if (found) ids.push(found.id);
          else errors.push(problem(row, field, `Unknown ${ONE_OF[lookup]} "${name}": choose from the list.`));
        }
        payload[field] = ids;
        return;
      }
      if (lookup) {
        if (blank) return;
        const found = find[lookup](value);
        // The preview shows what was found, or what was typed when nothing was.
        if (field === 'analyte_id') shown.measurand = found?.name ?? text(value);
        if (field === 'matrix_id') shown.matrix = found?.name ?? text(value);
        if (!found) {
          errors.push(
            problem(row, field, `Unknown ${ONE_OF[lookup]} "${text(value)}": choose one from the list.`),
          );
          return;
        }
        payload[field] = found.id;
        return;
      }
      switch (kind) {
        case 'number':
          payload[field] = numberOf(value);
          return;
        case 'flag':
          payload[field] = flagOf(value);
          return;
        case 'grade':
          payload[field] = blank ? undefined : text(value).toUpperCase();
          return;
        case 'choice': {
          const values = column.list && 'values' in column.list ? column.list.values : [];
          const t = text(value);
          payload[field] = values.find((v) => v.toLowerCase() === t.toLowerCase()) ?? t;
          return;
        }
        case 'text':
          payload[field] = column.time ? timeOf(value) : text(value);
          return;
        case 'id':
        case 'ids':
          return;
      }
    });
    const placed = new Set(errors.map((e) => e.field));
    const parsed = DatasetInputSchema.safeParse(payload);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '') as DatasetFieldName;
        if (placed.has(field)) continue;
        const known = field in DATASET_FIELDS;
        errors.push(problem(row, known ? field : null, issue.message, known ? undefined : 'row'));
      }
    }
    return { row, payload, input: parsed.success && errors.length === 0 ? parsed.data : null, shown, errors };
  });
  return { rows, problems };
}
