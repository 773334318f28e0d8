import type { ValidationRow } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../lib/app-error.js';
import { loadMetaGroups, metaInputRows } from '../metas/meta-recompute.service.js';
import type { VarType } from '../metas/meta-eligibility.js';
import { listSpecsForValidation } from './meta-tools.repository.js';
import { presentValidationRow } from './meta-tools.presenter.js';

/** Unknown ids are answered in `not_found`, not as a 404: one stale id should not hide the rest. */
export async function validateForMeta(
  db: DbOrTx,
  ids: number[],
): Promise<{ output: ValidationRow[]; not_found: number[] }> {
  const unique = [...new Set(ids)];
  const rows = await listSpecsForValidation(db, unique);
  const found = new Map(rows.map((r) => [r.spec.id, r]));
  return {
    output: unique.filter((id) => found.has(id)).map((id) => presentValidationRow(found.get(id)!)),
    not_found: unique.filter((id) => !found.has(id)),
  };
}

const HEADER = ['ID', 'Include', 'Score', 'CV', 'CI_lower', 'CI_upper'];
const cell = (v: number | null) => (v === null ? 'NA' : String(v));

/** The statistics service's CSV input (IDs are reference ids, so no cell needs quoting) of each group (matrix, consolidation) of one measurand. */
export async function inputTables(db: DbOrTx, analyteId: number) {
  const loaded = await loadMetaGroups(db, analyteId);
  if (!loaded) throw notFound(`Measurand ${analyteId}`);
  const csv = (specs: Parameters<typeof metaInputRows>[0], type: VarType) =>
    [
      HEADER,
      ...metaInputRows(specs, type).map((r) => [
        String(r.id),
        r.include ? 'TRUE' : 'FALSE',
        r.score,
        cell(r.cv),
        cell(r.ciLower),
        cell(r.ciUpper),
      ]),
    ]
      .map((cells) => cells.join(','))
      .join('\n');
  return {
    analyte: { id: loaded.analyte.id, display_name: loaded.analyte.displayName },
    tables: loaded.groups.map((g) => ({
      label: g.label,
      matrix_id: g.matrixId,
      matrix_consolidation_id: g.consolidationId,
      within: csv(g.specs, ':cvi'),
      between: csv(g.specs, ':cvg'),
    })),
  };
}
