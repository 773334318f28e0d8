import type { UploadCellProblem } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import type { Actor } from '../../lib/actor.js';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { listAllAnalytes } from '../analytes/index.js';
import { DatasetWriteService, identifierClashes } from '../datasets/index.js';
import { listAllLookups } from '../lookups/index.js';
import { listReferenceKeys } from '../references/index.js';
import { buildDatasetTemplate, type TemplateLists } from './dataset-template.js';
import { checkRows, type CheckedRow, type UploadCatalogue } from './upload-rows.js';
import { readUploadedSheetOffThread } from './upload-sheet-pool.js';
import type { ListName } from './upload-columns.js';

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** The lookup tables and references as the cells may name them. */
async function loadCatalogue(db: DbOrTx): Promise<UploadCatalogue> {
  const [lookups, analytes, references] = await Promise.all([
    listAllLookups(db),
    listAllAnalytes(db),
    listReferenceKeys(db),
  ]);
  const lists: Record<ListName, { id: number; name: string }[]> = {
    measurands: analytes.map((a) => ({ id: a.id, name: a.displayName })).sort(byName),
    matrices: lookups.matrices.map((m) => ({ id: m.id, name: m.matrix_expansion })),
    states: lookups.states_of_well_being.map((s) => ({
      id: s.id,
      name: s.state_of_well_being_descriptor_expansion,
    })),
    ethnicities: lookups.ethnicities.map((e) => ({ id: e.id, name: e.ethnicity_expansion })),
    diseases: lookups.diseases.map((d) => ({ id: d.id, name: d.item_type })),
    units: lookups.units.map((u) => ({ id: u.id, name: u.name })),
    methods: lookups.methods.map((m) => ({ id: m.id, name: m.name })),
  };
  return {
    lists,
    references: references.map((r) => ({
      id: r.id,
      title: r.title,
      doi: r.doi,
      pmid: r.pubmedLink ? (/(\d{1,9})\/?$/.exec(r.pubmedLink.trim())?.[1] ?? null) : null,
    })),
  };
}

/** The bulk-entry template with today's lookup tables in its drop-downs. */
export async function buildTemplate(db: DbOrTx): Promise<Buffer> {
  const { lists } = await loadCatalogue(db);
  const names = Object.fromEntries(
    Object.entries(lists).map(([k, v]) => [k, v.map((e) => e.name)]),
  ) as unknown as TemplateLists;
  return buildDatasetTemplate(names);
}

export interface CheckedUpload {
  fileName: string | null;
  rows: CheckedRow[];
  problems: UploadCellProblem[];
}

/**
 * Reads an uploaded sheet and checks every row with the form's schema, then the rule no schema
 * knows: a dataset's Unique Identifier is its own within its reference and measurand (stored
 * datasets and earlier rows). Saves nothing.
 */
export async function checkUpload(
  deps: Pick<ServiceDeps, 'db'>,
  bytes: Buffer,
  fileName: string | undefined,
): Promise<CheckedUpload> {
  const sheet = await readUploadedSheetOffThread(bytes, fileName);
  const { rows, problems } = checkRows(sheet, await loadCatalogue(deps.db));
  if (sheet.rows.length === 0) {
    problems.push({
      row: 0,
      column: 'file',
      field: null,
      message: 'The file has no rows of data (row 2 on).',
    });
  }
  const valid = rows.filter((r) => r.input !== null);
  const clashes = await identifierClashes(
    deps.db,
    valid.map((r) => ({ row: r.row, input: r.input! })),
  );
  for (const c of clashes) {
    const row = rows.find((r) => r.row === c.row)!;
    row.errors.push({
      row: c.row,
      column: 'Unique Identifier',
      field: 'unique_identifier',
      message: c.message,
    });
    row.input = null;
  }
  return { fileName: fileName ?? null, rows, problems };
}

/** Every problem of a checked upload, as the error answer's field messages (`row 3.Matrix`). */
export function problemsOf(upload: CheckedUpload): UploadCellProblem[] {
  return [...upload.problems, ...upload.rows.flatMap((r) => r.errors)];
}

/**
 * Saves a bulk upload when every row is valid, all in one transaction (datasets, disease states,
 * audit entries, one recompute request per measurand); otherwise a 422 listing every bad cell.
 */
export async function commitUpload(
  deps: ServiceDeps,
  bytes: Buffer,
  fileName: string | undefined,
  actor: Actor,
) {
  const upload = await checkUpload(deps, bytes, fileName);
  const problems = problemsOf(upload);
  if (problems.length > 0) {
    const first = problems[0]!;
    const where = first.row > 0 ? `Row ${first.row}, ${first.column}: ` : '';
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new AppError('unprocessable', `${where}${first.message}${more} Nothing was saved.`, {
      fields: problems.map((p) => ({
        path: p.row > 0 ? `row ${p.row}.${p.column}` : `file.${p.column}`,
        message: p.message,
      })),
    });
  }
  // Bulk uploads enter final, never "in appraisal" (decision 022): no appraisal workflow needed.
  return new DatasetWriteService(deps, null).createMany(
    upload.rows.map((r) => ({ row: r.row, input: r.input! })),
    actor,
  );
}
