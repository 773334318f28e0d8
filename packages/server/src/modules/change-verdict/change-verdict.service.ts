import { CVA_MESSAGE, type ChangeVerdictQuery } from '@bvdb/contract';
import {
  changeVerdict,
  desirableCva,
  DomainInputError,
  limitsKindOf,
  type ChangeVerdict,
  type WorkbenchEstimate,
} from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import {
  keptFacetedEstimates,
  populationResultOf,
  populationRowSentence,
  studiesOf,
  workbenchEstimateOf,
  type FacetResult,
  type Population,
} from '../meta-analysis/index.js';
import type { FoundTest, TestLookup } from '../menu/index.js';

/** A test found and judgeable: its estimates in the matrix, and its CVI as the verdict uses it. */
export interface JudgeableTest {
  found: FoundTest & { group: NonNullable<FoundTest['group']> };
  cvi: WorkbenchEstimate;
  /** With facets (issue 47.3): the population whose CVI `cvi` is, never the global one. */
  population?: { population: Population; cvi: FacetResult; studies: number };
}

/** A population asked of the verdict, and what computes its estimates (kept per facet set). */
export interface PopulationAsked {
  population: Population;
  deps: Pick<ServiceDeps, 'db' | 'cache'>;
}

/** x2 converted to x1's unit (`unit`) by UCUM: the factor, from x2's unit as sent to `unit`. */
export interface UnitConversion {
  factor: number;
  from: string;
  to: string;
}

/** A verdict with what it was judged on: the test as found, and the CVA used and where it came from. */
export interface JudgedChange {
  found: JudgeableTest['found'];
  population?: JudgeableTest['population'];
  cva: number;
  cvaSource: 'given' | 'desirable';
  /** null when both results came in one unit */
  conversion: (UnitConversion & { x2: number }) | null;
  verdict: ChangeVerdict;
}

/** What UCUM says of a query's units (answered in a change-verdict thread: decision 092). */
export type UnitsAnswer = { ok: true; factor: number | null } | { ok: false; message: string };
/** The scale a test's code names (`FoundTest['scale']`), which a result's unit must be on. */
export type CodeScale = { code: string; unit: string } | null;
/**
 * Asks UCUM about `unit` (and `unit2`, x2's unit, when it differs), and whether `unit` is on the
 * scale of the code the test was found by.
 */
export type CheckUnits = (unit: string, unit2: string | null, scale: CodeScale) => Promise<UnitsAnswer>;

/** A measurand asked by id is looked up by its id (the catalogue knows each id as a code). */
export const testOf = (q: Pick<ChangeVerdictQuery, 'code' | 'measurand' | 'matrix'>) => {
  const byId = q.measurand !== undefined && /^\d+$/.test(q.measurand);
  return {
    name: byId ? null : (q.measurand ?? null),
    code: byId ? q.measurand! : (q.code ?? null),
    matrix: q.matrix?.trim() ? q.matrix : null,
  };
};

/**
 * `system|code` as FHIR writes a token: the code is compared (LOINC, NPU and SNOMED CT codes do not
 * collide in form), the system only says which list it is from.
 */
const codeOf = (token: string) => token.slice(token.lastIndexOf('|') + 1).trim();

/**
 * The test of a change verdict (issue 45.4), found as the menu finds a line, with its CVI estimate in
 * the matrix. A test found nowhere is 404; one that cannot be judged (ambiguous, no estimate in the
 * matrix, no CVI) is 422 with why.
 */
export async function findJudgeable(
  tests: TestLookup,
  q: Pick<ChangeVerdictQuery, 'code' | 'measurand' | 'matrix'>,
  populationAsked?: PopulationAsked,
): Promise<JudgeableTest> {
  const asked = testOf(q);
  const found = await tests.find({ ...asked, code: asked.code === null ? null : codeOf(asked.code) });
  const { match, group } = found;
  if (match.status === 'ambiguous') {
    const names = match.candidates.map((c) => `${c.displayName} (${c.matrix})`).join(', ');
    throw new AppError('unprocessable', `${match.why ?? 'More than one measurand fits'}: ${names}`);
  }
  if (match.status === 'unmatched' && match.candidates.length === 0 && match.match === null) {
    const what = q.code !== undefined ? `code ${q.code}` : `measurand ${q.measurand}`;
    if (/no measurand has/i.test(match.why ?? ''))
      throw new AppError('not_found', `No measurand has the ${what}`);
  }
  if (!group) {
    const matrices = match.candidates.map((c) => c.matrix).join(', ');
    throw new AppError(
      'unprocessable',
      `${match.why ?? 'No estimate to judge the change with'}${matrices ? ` (estimates in: ${matrices})` : ''}`,
    );
  }
  if (populationAsked) {
    // The population's CVI in the matrix found, recomputed; without one, 422 saying so (never the global one).
    const estimates = await keptFacetedEstimates(
      populationAsked.deps,
      group.analyteId,
      populationAsked.population.selection,
    );
    const result = populationResultOf(estimates, group, ':cvi');
    if (!result)
      throw new AppError(
        'unprocessable',
        `${group.analyteName} has no CVI estimate in ${group.matrix} for this population: ${populationRowSentence(populationAsked.population, 0)}`,
      );
    const studies = studiesOf(result);
    return {
      found: { ...found, group },
      cvi: {
        median: result.result.weightedMedian!,
        lower: result.result.rangeLower,
        upper: result.result.rangeUpper,
        limits: limitsKindOf(result.result.method),
      },
      population: { population: populationAsked.population, cvi: result, studies },
    };
  }
  const cvi = workbenchEstimateOf(group.cvi);
  if (!cvi)
    throw new AppError('unprocessable', `${group.analyteName} has no CVI estimate in ${group.matrix}`);
  return { found: { ...found, group }, cvi };
}

/** The two units of a query as UCUM is asked about them: x2's only when it is not x1's. */
export const unitsOf = (q: Pick<ChangeVerdictQuery, 'unit' | 'unit2'>) => {
  const unit = q.unit?.trim() ? q.unit.trim() : null;
  const unit2 = q.unit2?.trim() && q.unit2.trim() !== unit ? q.unit2.trim() : null;
  return { unit, unit2 };
};

/**
 * The verdict on a test found (no I/O: it runs on the event loop for one pair and in a thread for a
 * batch). x2 is judged in x1's unit: multiplied by UCUM's factor when it came in another. Nothing is
 * computed from a missing input: no CVA → 422.
 */
export function judgeFound(
  test: JudgeableTest,
  q: ChangeVerdictQuery,
  conversion: UnitConversion | null,
): JudgedChange {
  if (q.cva === undefined) throw new AppError('unprocessable', CVA_MESSAGE);
  const cvaSource = q.cva === 'desirable' ? 'desirable' : 'given';
  const cva = q.cva === 'desirable' ? desirableCva(test.cvi.median) : q.cva;
  const x2 = conversion ? q.x2 * conversion.factor : q.x2;
  try {
    const verdict = changeVerdict({
      cvi: test.cvi,
      cva,
      x1: q.x1,
      x2,
      probability: q.probability,
      direction: q.direction,
      n1: q.n1,
      n2: q.n2,
    });
    return {
      found: test.found,
      ...(test.population ? { population: test.population } : {}),
      cva,
      cvaSource,
      conversion: conversion ? { ...conversion, x2 } : null,
      verdict,
    };
  } catch (err) {
    if (err instanceof DomainInputError) throw new AppError('unprocessable', err.message);
    throw err;
  }
}

/**
 * The change verdict of issue 45.4 for one pair: the test found, the units checked by UCUM (a unit
 * that is not UCUM, two UCUM cannot convert, or a unit off the scale of the code the test was found
 * by, is 422 naming them), and the domain's verdict.
 */
export async function judgeChange(
  tests: TestLookup,
  q: ChangeVerdictQuery,
  checkUnits: CheckUnits,
  population?: PopulationAsked,
): Promise<JudgedChange> {
  const test = await findJudgeable(tests, q, population);
  const { unit, unit2 } = unitsOf(q);
  let conversion: UnitConversion | null = null;
  if (unit !== null) {
    const units = await checkUnits(unit, unit2, test.found.scale);
    if (!units.ok) throw new AppError('unprocessable', units.message);
    if (unit2 !== null && units.factor !== null) conversion = { factor: units.factor, from: unit2, to: unit };
  }
  return judgeFound(test, q, conversion);
}
