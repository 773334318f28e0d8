import type { Disease, Ethnicity, Matrix, StateOfWellBeing } from '@bvdb/contract';
import type { diseaseStates, ethnicities, matrices, statesOfWellBeing } from '../../db/schema.js';

export const presentMatrix = (m: typeof matrices.$inferSelect): Matrix => ({
  id: m.id,
  matrix_expansion: m.matrixExpansion,
  matrix_explanation: m.matrixExplanation,
});

export const presentStateOfWellBeing = (s: typeof statesOfWellBeing.$inferSelect): StateOfWellBeing => ({
  id: s.id,
  state_of_well_being_descriptor_expansion: s.expansion,
  state_of_well_being_descriptor_explanation: s.explanation,
});

export const presentDisease = (d: typeof diseaseStates.$inferSelect): Disease => ({
  id: d.id,
  item_type: d.itemType,
});

export const presentEthnicity = (e: typeof ethnicities.$inferSelect): Ethnicity => ({
  id: e.id,
  ethnicity_expansion: e.expansion,
});

/** What a form shows for several matrices at once: the consolidation's name, else the names joined. */
export function presentMatrixSelection(
  found: (typeof matrices.$inferSelect)[],
  consolidation: { name: string } | null,
): Pick<Matrix, 'matrix_expansion' | 'matrix_explanation'> {
  const names = found.map((m) => m.matrixExpansion).join(', ');
  const first = found[0]!;
  return found.length === 1
    ? { matrix_expansion: first.matrixExpansion, matrix_explanation: first.matrixExplanation }
    : { matrix_expansion: consolidation?.name ?? names, matrix_explanation: `Consolidation of ${names}` };
}
