import type { UnitsAnswer } from './change-verdict.service.js';
import {
  judgeBatchTask,
  readBatchOnce,
  testsOfPairs,
  type BatchBody,
  type JudgeBatchTask,
} from './change-verdict-batch.js';
import { checkUnit, unitFactor } from './unit-conversion.js';

/** What a change-verdict thread is asked (decision 092). */
export type VerdictThreadTask =
  | { kind: 'units'; unit: string; unit2: string | null }
  | {
      kind: 'read';
      body: BatchBody;
      shared: JudgeBatchTask['shared'];
    }
  | ({ kind: 'judge' } & JudgeBatchTask);

/** `unit` checked by UCUM, and the factor from `unit2` to it when x2 came in another unit. */
function unitsTask(unit: string, unit2: string | null): UnitsAnswer {
  if (unit2 === null) {
    const check = checkUnit(unit);
    return check.ok ? { ok: true, factor: null } : check;
  }
  return unitFactor(unit2, unit);
}

export function verdictThreadTask(task: VerdictThreadTask): unknown {
  switch (task.kind) {
    case 'units':
      return unitsTask(task.unit, task.unit2);
    case 'read':
      return testsOfPairs(readBatchOnce(task.body, task.shared)).tests;
    case 'judge':
      return judgeBatchTask(task);
  }
}
