import {
  CHANGE_VERDICT_SOURCE,
  ChangeVerdictQuerySchema,
  ChangeVerdictBatchBodySchema,
  ChangeVerdictBatchSchema,
  RCV_BATCH_MAX,
  type ChangeVerdictBatch,
  type ChangeVerdictLine,
  type ChangeVerdictQuery,
} from '@bvdb/contract';
import { parseCsv } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import { contractJson } from '../../lib/contract-json.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../lib/json-depth.js';
import { tableToCsv } from '../exports/index.js';
import { populationRowSentence } from '../meta-analysis/index.js';
import {
  judgeFound,
  unitsOf,
  type CodeScale,
  type JudgeableTest,
  type UnitConversion,
} from './change-verdict.service.js';
import { checkScale, checkUnit, unitFactor } from './unit-conversion.js';

const BATCH_COLUMNS = [
  'code',
  'measurand',
  'matrix',
  'x1',
  'x2',
  'unit',
  'unit2',
  'cva',
  'n1',
  'n2',
] as const;

/** CSV with a header row → one record per non-blank row (unknown columns are ignored). */
export function pairsOfCsv(text: string): Record<string, unknown>[] {
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
  x2_converted: null,
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

type Shared = { probability: number; direction: 'either' | 'one' };

/** A pair as read: its query, or why it is not one (the status the single verdict would answer). */
export type ReadPair = { ok: true; q: ChangeVerdictQuery } | { ok: false; status: number; error: string };

/** A distinct test of a batch as found on the event loop: judgeable, or why not. */
export type FoundPairTest = { ok: true; test: JudgeableTest } | { ok: false; status: number; error: string };

/** A batch as the route has it: the body's text, JSON or CSV (parsed in the thread, not on the loop). */
export interface BatchBody {
  text: string;
  json: boolean;
}

/** A JSON body's pairs, parsed and checked here (the contract's JSON shape), not on the event loop. */
function pairsOfJson(text: string): Record<string, unknown>[] {
  if (jsonDepthExceeds(text))
    throw new AppError('bad_request', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AppError(
      'bad_request',
      `The body is not JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const parsed = BatchJsonSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('bad_request', `${['body', ...issue.path].join('.')}: ${issue.message}`);
  }
  return parsed.data.pairs;
}
const BatchJsonSchema = ChangeVerdictBatchBodySchema.options[0];

/** Reading a batch (in a change-verdict thread): each pair checked by the single verdict's query. */
export function readBatch(body: BatchBody, shared: Shared): ReadPair[] {
  const pairs = body.json ? pairsOfJson(body.text) : pairsOfCsv(body.text);
  return pairs.map((pair): ReadPair => {
    const parsed = ChangeVerdictQuerySchema.safeParse({ ...pair, ...shared });
    if (parsed.success) return { ok: true, q: parsed.data };
    const issue = parsed.error.issues[0]!;
    return { ok: false, status: 400, error: `${issue.path.join('.') || 'pair'}: ${issue.message}` };
  });
}

/**
 * A pair's units by UCUM, in the thread (each distinct unit and pair asked once): x1's unit on the
 * scale of the code its test was found by, and x2's converted to it.
 */
function conversionOf(q: ChangeVerdictQuery, scale: CodeScale): UnitConversion | null {
  const { unit, unit2 } = unitsOf(q);
  if (unit === null) return null;
  if (scale) {
    const onScale = checkScale(unit, scale);
    if (!onScale.ok) throw new AppError('unprocessable', onScale.message);
  }
  if (unit2 === null) {
    const check = checkUnit(unit);
    if (!check.ok) throw new AppError('unprocessable', check.message);
    return null;
  }
  const factor = unitFactor(unit2, unit);
  if (!factor.ok) throw new AppError('unprocessable', factor.message);
  return { factor: factor.factor, from: unit2, to: unit };
}

function judgeLine(line: number, q: ChangeVerdictQuery, found: FoundPairTest): ChangeVerdictLine {
  if (!found.ok) return failed(line, found.status, found.error);
  try {
    const { cva, cvaSource, verdict, conversion } = judgeFound(
      found.test,
      q,
      conversionOf(q, found.test.found.scale),
    );
    const { group, cviRef } = found.test.found;
    const population = found.test.population;
    return {
      line,
      measurand_id: group.analyteId,
      display_name: group.analyteName,
      matrix: group.matrix,
      // A population's CVI (issue 47.3) is recomputed: no stored estimate nor version behind it.
      estimate_id: population ? null : (cviRef?.estimateId ?? null),
      version: population ? null : (cviRef?.version ?? null),
      x2_converted: conversion?.x2 ?? null,
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

/** A test as a pair names it: what the event loop finds once per batch, however many pairs name it. */
export type PairTest = Pick<ChangeVerdictQuery, 'code' | 'measurand' | 'matrix'>;

/**
 * The distinct tests of a batch's pairs, in order of first mention, and each pair's index among them
 * (-1 for a pair not read): the same for the same body, so the thread that judges finds them again.
 */
export function testsOfPairs(pairs: readonly ReadPair[]): { tests: PairTest[]; testOf: number[] } {
  const index = new Map<string, number>();
  const tests: PairTest[] = [];
  const testOf = pairs.map((pair) => {
    if (!pair.ok) return -1;
    const { code, measurand, matrix } = pair.q;
    const key = `${code ?? ''}\u0000${measurand ?? ''}\u0000${matrix ?? ''}`;
    let i = index.get(key);
    if (i === undefined) {
      i = tests.push({ code, measurand, matrix }) - 1;
      index.set(key, i);
    }
    return i;
  });
  return { tests, testOf };
}

/** What a change-verdict thread judges: the body again, and each distinct test as found on the loop. */
export interface JudgeBatchTask {
  body: BatchBody;
  shared: Shared;
  /** per distinct test of `testsOfPairs`, in its order */
  found: FoundPairTest[];
  want: 'json' | 'csv';
  /** With facets (issue 47.3): the population every pair is judged for. */
  population?: ChangeVerdictBatch['population'];
}

/**
 * A batch of change verdicts (issue 45.5), judged in a change-verdict thread: each pair as
 * `GET /api/v1/rcv` judges it, in order, a bad pair answered with its status and message and the rest
 * judged; the answer's text (JSON checked against the contract, or CSV) is written here too.
 */
/**
 * The last body this thread read, with its pairs: the judging task of the same batch usually comes
 * to the same thread, which then reads it once, not twice (a 10,000-pair read is a third of the work).
 */
let lastRead: { body: BatchBody; shared: Shared; pairs: ReadPair[] } | undefined;

/** `readBatch`, kept for the batch's next task on this thread. */
export function readBatchOnce(body: BatchBody, shared: Shared): ReadPair[] {
  const last = lastRead;
  if (
    last &&
    last.body.json === body.json &&
    last.body.text === body.text &&
    last.shared.probability === shared.probability &&
    last.shared.direction === shared.direction
  ) {
    lastRead = undefined;
    return last.pairs;
  }
  const pairs = readBatch(body, shared);
  lastRead = { body, shared, pairs };
  return pairs;
}

export function judgeBatchTask(task: JudgeBatchTask): string {
  const pairs = readBatchOnce(task.body, task.shared);
  const { testOf } = testsOfPairs(pairs);
  const judged = pairs.map((pair, i) => {
    if (!pair.ok) return failed(i + 1, pair.status, pair.error);
    return judgeLine(i + 1, pair.q, task.found[testOf[i]!]!);
  });
  // With a population each line says so (its sentence; null for a pair not judged): a column in CSV.
  const results = task.population
    ? judged.map((r, i) => {
        const found = pairs[i]!.ok ? task.found[testOf[i]!] : undefined;
        const p = r.status === 200 && found?.ok ? found.test.population : undefined;
        return { ...r, population: p ? populationRowSentence(p.population, p.studies) : null };
      })
    : judged;
  const batch: ChangeVerdictBatch = {
    parameters: task.shared,
    summary: {
      pairs: results.length,
      judged: results.filter((r) => r.status === 200).length,
      significant: results.filter((r) => r.significant === true).length,
      errors: results.filter((r) => r.status !== 200).length,
    },
    source: CHANGE_VERDICT_SOURCE,
    results,
    ...(task.population ? { population: task.population } : {}),
  };
  return task.want === 'csv' ? tableToCsv(batchTable(batch)) : contractJson(ChangeVerdictBatchSchema, batch);
}

/** The batch's answer as a table (CSV out): one row per pair, the columns of the JSON lines. */
function batchTable(batch: ChangeVerdictBatch) {
  const headers = Object.keys(batch.results[0] ?? failed(0, 0, '')) as (keyof ChangeVerdictLine)[];
  return {
    title: 'Change verdicts',
    headers,
    rows: batch.results.map((r) =>
      headers.map((h) => (typeof r[h] === 'boolean' ? String(r[h]) : (r[h] ?? null))),
    ),
    notes: [
      ['Probability', String(batch.parameters.probability)],
      ['Direction', batch.parameters.direction],
      ['Source', batch.source],
      ...(batch.population ? [['Population', batch.population.sentence]] : []),
    ] as [string, string][],
    generatedAt: new Date(),
  };
}
