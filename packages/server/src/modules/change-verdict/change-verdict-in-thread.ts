import type { CodeScale, UnitsAnswer } from './change-verdict.service.js';
import {
  judgeBatchTask,
  readBatch,
  readBatchOnce,
  testsOfPairs,
  type BatchBody,
  type FoundPairTest,
  type JudgeBatchTask,
} from './change-verdict-batch.js';
import { checkScale, checkUnit, unitFactor } from './unit-conversion.js';

/** What a change-verdict thread is asked (decision 092). */
export type VerdictThreadTask =
  | { kind: 'warm' }
  | { kind: 'units'; unit: string; unit2: string | null; scale: CodeScale }
  | {
      kind: 'read';
      body: BatchBody;
      shared: JudgeBatchTask['shared'];
    }
  | ({ kind: 'judge' } & JudgeBatchTask);

const WARM_SHARED = { probability: 0.95, direction: 'either' } as const;
/** A made-up test the warm-up judges (nothing of it is answered to anyone). */
const WARM_TEST = {
  ok: true,
  test: {
    found: {
      match: null,
      group: { analyteId: 0, analyteName: 'warm-up', matrix: 'Serum' },
      cviRef: undefined,
      scale: { code: 'warm-up', unit: 'g/L' },
    },
    cvi: { median: 5, lower: 4, upper: 6, limits: null },
  },
} as unknown as FoundPairTest;
const WARM_PAIRS = 2000;

/**
 * A thread's warm-up after ready (issue 45): UCUM's tables loaded, and a made-up batch read, judged
 * and written as JSON and CSV, so a laboratory's first batch finds the code loaded and compiled.
 */
function warmUp(): boolean {
  const rows = Array.from({ length: WARM_PAIRS }, (_, i) =>
    i % 10 === 3 ? `warm-up,100,${(i % 90) / 100},mg/dL,g/L,3` : `warm-up,100,${60 + (i % 90)},mg/dL,,3`,
  );
  const body = { text: `measurand,x1,x2,unit,unit2,cva\r\n${rows.join('\r\n')}\r\n`, json: false };
  for (const want of ['json', 'csv'] as const) {
    testsOfPairs(readBatch(body, WARM_SHARED));
    judgeBatchTask({ body, shared: WARM_SHARED, found: [WARM_TEST], want });
  }
  return true;
}

/** `unit` checked by UCUM, and the factor from `unit2` to it when x2 came in another unit. */
function unitsTask(unit: string, unit2: string | null, scale: CodeScale): UnitsAnswer {
  if (scale) {
    const onScale = checkScale(unit, scale);
    if (!onScale.ok) return onScale;
  }
  if (unit2 === null) {
    const check = checkUnit(unit);
    return check.ok ? { ok: true, factor: null } : check;
  }
  return unitFactor(unit2, unit);
}

export function verdictThreadTask(task: VerdictThreadTask): unknown {
  switch (task.kind) {
    case 'warm':
      return warmUp();
    case 'units':
      return unitsTask(task.unit, task.unit2, task.scale);
    case 'read':
      return testsOfPairs(readBatchOnce(task.body, task.shared)).tests;
    case 'judge':
      return judgeBatchTask(task);
  }
}
