import type { Disease, Matrix, StateOfWellBeing } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../lib/app-error.js';
import {
  presentDisease,
  presentEthnicity,
  presentMatrix,
  presentMatrixSelection,
  presentStateOfWellBeing,
} from './lookups.presenter.js';
import * as repo from './lookups.repository.js';

/** The lookups module's face for its routes and for other modules (never its repository). */
export const findMatrix = (db: DbOrTx, id: number) => repo.findMatrix(db, id);

/** Matrix rows by id, in id order (as stored). */
export const findMatricesByIds = (db: DbOrTx, ids: number[]) => repo.findMatricesByIds(db, ids);

/** Every consolidation with one row per member matrix. */
export const listConsolidationMembers = (db: DbOrTx) => repo.listConsolidationMembers(db);

export async function listMatrices(db: DbOrTx): Promise<Matrix[]> {
  return (await repo.listMatrices(db)).map(presentMatrix);
}

export async function getMatrix(db: DbOrTx, id: number): Promise<Matrix | undefined> {
  const row = await repo.findMatrix(db, id);
  return row && presentMatrix(row);
}

/** How several matrices are shown together, and the consolidation that pools exactly them, if any. */
export async function describeMatrices(db: DbOrTx, ids: number[]) {
  const found = await repo.findMatricesByIds(db, ids);
  const missing = ids.filter((id) => !found.some((m) => m.id === id));
  if (missing.length > 0) throw notFound(`Matrix ${missing.join(', ')}`);
  const consolidation = await repo.findConsolidationForMatrices(db, ids);
  return { matrix: presentMatrixSelection(found, consolidation), consolidation };
}

export async function getStateOfWellBeing(db: DbOrTx, id: number): Promise<StateOfWellBeing | undefined> {
  const row = await repo.findStateOfWellBeing(db, id);
  return row && presentStateOfWellBeing(row);
}

export const listDiseasesOfDataset = (db: DbOrTx, datasetId: number): Promise<Disease[]> =>
  repo.listDiseasesOfDataset(db, datasetId);

/** The disease names of many datasets, by dataset id (datasets without one are absent). */
export async function diseaseNamesOfDatasets(
  db: DbOrTx,
  datasetIds: number[],
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (const row of await repo.listDiseasesOfDatasets(db, datasetIds)) {
    const list = out.get(row.datasetId) ?? [];
    list.push(row.item_type);
    out.set(row.datasetId, list);
  }
  return out;
}

/** The labels of the lookups a dataset's population facets read, by id (issue 47). */
export async function facetLookupLabels(db: DbOrTx) {
  const all = await repo.listAllLookups(db);
  return {
    matrices: new Map(all.matrices.map((m) => [m.id, m.matrixExpansion])),
    states: new Map(all.statesOfWellBeing.map((s) => [s.id, s.expansion])),
    ethnicities: new Map(all.ethnicities.map((e) => [e.id, e.expansion])),
    methods: new Map(all.methods.map((m) => [m.id, m.name])),
    diseases: new Map(all.diseases.map((d) => [d.id, d.itemType])),
  };
}

/** Every lookup list the forms offer, in one answer. */
export async function listAllLookups(db: DbOrTx) {
  const all = await repo.listAllLookups(db);
  return {
    matrices: all.matrices.map(presentMatrix),
    states_of_well_being: all.statesOfWellBeing.map(presentStateOfWellBeing),
    diseases: all.diseases.map(presentDisease),
    ethnicities: all.ethnicities.map(presentEthnicity),
    units: all.units,
    methods: all.methods,
  };
}
