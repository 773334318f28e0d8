import { AnalyteWithCountSchema } from '@bvdb/contract';
import { contractFragment, type JsonFragment } from '../../lib/contract-json.js';
import { presentAnalyteWithCount } from './analytes.presenter.js';
import type { listAllAnalytes } from './analytes.repository.js';

type AnalyteRow = Awaited<ReturnType<typeof listAllAnalytes>>[number];

/** Per kept row object (a write brings a new one), its fragment per dataset count. */
const made = new WeakMap<AnalyteRow, Map<number, JsonFragment>>();

/**
 * A measurand with its dataset count as JSON, checked against the contract once per row and count
 * (decision 071; fragments as in decision 065): a search at 100× the demo answers fifty measurands,
 * and checking and writing each one on every first ask was most of what the answer cost beyond 1×.
 */
export function analyteWithCountJson(analyte: AnalyteRow, count: number): JsonFragment {
  let byCount = made.get(analyte);
  if (!byCount) {
    byCount = new Map();
    made.set(analyte, byCount);
  }
  let fragment = byCount.get(count);
  if (!fragment) {
    fragment = contractFragment(AnalyteWithCountSchema, presentAnalyteWithCount({ analyte, count }));
    byCount.set(count, fragment);
  }
  return fragment;
}
