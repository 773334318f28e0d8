import {
  CHANGE_VERDICT_SOURCE,
  ChangeVerdictQuerySchema,
  RCV_BATCH_MAX,
  type ChangeVerdictBatch,
  type ChangeVerdictLine,
} from '@bvdb/contract';
import { parseCsv } from '@bvdb/domain';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AppError } from '../../lib/app-error.js';
import type { TestLookup } from '../menu/index.js';
import { judgeChange } from './change-verdict.service.js';

/** Pairs judged between two turns of the event loop: a batch never holds it for long. */
const SLICE = 250;

const BATCH_COLUMNS = ['code', 'measurand', 'matrix', 'x1', 'x2', 'unit', 'cva', 'n1', 'n2'] as const;

/** CSV with a header row → one record per non-blank row (unknown columns are ignored). */
function pairsOfCsv(text: string): Record<string, unknown>[] {
  const [header, ...rows] = parseCsv(text).filter((r) => r.some((cell) => cell.trim() !== ''));
  if (!header) throw new AppError('bad_request', 'The CSV is empty: send a header row and one row per pair');
  const names = header.map((h) => h.trim().toLowerCase());
  if (
    !names.includes('x1') ||
    !names.includes('x2') ||
    !(names.includes('code') || names.includes('measurand'))
  )
    throw new AppError(
      'bad_request',
      `The CSV header must name code or measurand, x1 and x2 (columns: ${BATCH_COLUMNS.join(', ')})`,
    );
  if (rows.length > RCV_BATCH_MAX)
    throw new AppError(
      'bad_request',
      `at most ${RCV_BATCH_MAX} pairs in one batch (the CSV has ${rows.length})`,
    );
  if (rows.length === 0) throw new AppError('bad_request', 'The CSV has a header but no pairs');
  return rows.map((r) => {
    const pair: Record<string, unknown> = {};
    names.forEach((name, i) => {
      const cell = r[i]?.trim() ?? '';
      if (cell !== '' && (BATCH_COLUMNS as readonly string[]).includes(name)) pair[name] = cell;
    });
    return pair;
  });
}

const failed = (line: number, status: number, error: string): ChangeVerdictLine => ({
  line,
  measurand_id: null,
  display_name: null,
  matrix: null,
  estimate_id: null,
  version: null,
  cva: null,
  cva_source: null,
  change_pct: null,
  rcv_up: null,
  rcv_down: null,
  significant: null,
  interpretation: null,
  status,
  error,
});

async function judgeOne(
  tests: TestLookup,
  line: number,
  pair: Record<string, unknown>,
  shared: { probability: number; direction: 'either' | 'one' },
): Promise<ChangeVerdictLine> {
  const parsed = ChangeVerdictQuerySchema.safeParse({ ...pair, ...shared });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return failed(line, 400, `${issue.path.join('.') || 'pair'}: ${issue.message}`);
  }
  try {
    const { found, cva, cvaSource, verdict } = await judgeChange(tests, parsed.data);
    return {
      line,
      measurand_id: found.group.analyteId,
      display_name: found.group.analyteName,
      matrix: found.group.matrix,
      estimate_id: found.cviRef?.estimateId ?? null,
      version: found.cviRef?.version ?? null,
      cva,
      cva_source: cvaSource,
      change_pct: verdict.change,
      rcv_up: verdict.up,
      rcv_down: verdict.down,
      significant: verdict.significant,
      interpretation: verdict.interpretation,
      status: 200,
      error: null,
    };
  } catch (err) {
    if (err instanceof AppError) return failed(line, err.statusCode, err.message);
    throw err;
  }
}

/**
 * A batch of change verdicts (issue 45.5): each pair judged as `GET /api/v1/rcv` judges it, in
 * order, a bad pair answered with its status and message and the rest judged; the event loop is
 * given back every SLICE pairs.
 */
export async function judgeBatch(
  tests: TestLookup,
  body: string | { pairs: Record<string, unknown>[] },
  shared: { probability: number; direction: 'either' | 'one' },
): Promise<ChangeVerdictBatch> {
  const pairs = typeof body === 'string' ? pairsOfCsv(body) : body.pairs;
  const results: ChangeVerdictLine[] = [];
  for (let i = 0; i < pairs.length; i++) {
    if (i > 0 && i % SLICE === 0) await yieldToLoop();
    results.push(await judgeOne(tests, i + 1, pairs[i]!, shared));
  }
  return {
    parameters: shared,
    summary: {
      pairs: results.length,
      judged: results.filter((r) => r.status === 200).length,
      significant: results.filter((r) => r.significant === true).length,
      errors: results.filter((r) => r.status !== 200).length,
    },
    source: CHANGE_VERDICT_SOURCE,
    results,
  };
}

/** The batch's answer as a table (CSV out): one row per pair, the columns of the JSON lines. */
export function batchTable(batch: ChangeVerdictBatch) {
  const headers = Object.keys(batch.results[0] ?? failed(0, 0, '')) as (keyof ChangeVerdictLine)[];
  return {
    title: 'Change verdicts',
    headers,
    rows: batch.results.map((r) => headers.map((h) => (typeof r[h] === 'boolean' ? String(r[h]) : r[h]))),
    notes: [
      ['Probability', String(batch.parameters.probability)],
      ['Direction', batch.parameters.direction],
      ['Source', batch.source],
    ] as [string, string][],
    generatedAt: new Date(),
  };
}
