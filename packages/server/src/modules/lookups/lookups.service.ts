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
