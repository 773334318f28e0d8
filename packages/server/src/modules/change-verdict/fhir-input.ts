import {
  FhirObservationInputSchema,
  LOINC_SYSTEM,
  NPU_SYSTEM,
  RCV_PROBABILITY_MAX,
  SNOMED_SYSTEM,
  UCUM_SYSTEM,
  type ChangeVerdictQuery,
  type FhirObservationInput,
  type FhirRcvParameters,
} from '@bvdb/contract';
import { AppError } from '../../lib/app-error.js';

/** The code systems a test is found by, in the order they are tried. */
const KNOWN_SYSTEMS = [LOINC_SYSTEM, NPU_SYSTEM, SNOMED_SYSTEM];

/** What the operation was asked, as the change verdict's own query (one per code to try). */
export interface FhirRcvAsk {
  first: FhirObservationInput;
  second: FhirObservationInput;
  /** the query with each of the first result's known codes, in order */
  queries: ChangeVerdictQuery[];
}

const bad = (message: string) => new AppError('bad_request', message);

function observations(p: FhirRcvParameters): [FhirObservationInput, FhirObservationInput] {
  const given = p.parameter.filter((x) => x.name === 'observation');
  if (given.length !== 2) throw bad(`Send exactly two "observation" parameters (got ${given.length})`);
  const parsed = given.map((x, i) => {
    const r = FhirObservationInputSchema.safeParse(x.resource);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw bad(`observation ${i + 1}: ${[...issue.path].join('.') || 'resource'}: ${issue.message}`);
    }
    return r.data;
  }) as [FhirObservationInput, FhirObservationInput];
  // Ordered by when each was taken when both say; otherwise as sent.
  const [a, b] = parsed;
  const ta = Date.parse(a.effectiveDateTime ?? '');
  const tb = Date.parse(b.effectiveDateTime ?? '');
  return Number.isFinite(ta) && Number.isFinite(tb) && tb < ta ? [b, a] : [a, b];
}

const decimal = (p: FhirRcvParameters, name: string) => {
  const x = p.parameter.find((q) => q.name === name);
  if (x === undefined) return undefined;
  if (typeof x.valueDecimal !== 'number') throw bad(`${name} must be a valueDecimal`);
  return x.valueDecimal;
};

/** The result's unit: its UCUM code (valueQuantity.code with the UCUM system), else its unit text. */
const unitOf = (o: FhirObservationInput) => {
  const q = o.valueQuantity;
  if (q.code !== undefined && q.system !== undefined && q.system !== UCUM_SYSTEM)
    throw new AppError(
      'unprocessable',
      `valueQuantity.system must be UCUM (${UCUM_SYSTEM}) for the code ${q.code}: the verdict reads UCUM units`,
    );
  return q.code ?? q.unit ?? null;
};

/**
 * The two results and the options of `Observation/$rcv`. The test is the first result's code (each
 * LOINC, NPU or SNOMED CT coding is tried in turn); both results must be of one test, one subject
 * and, when their units differ, of units UCUM converts (the second to the first's, decision 092).
 */
export function readRcvParameters(p: FhirRcvParameters): FhirRcvAsk {
  const [first, second] = observations(p);
  const codes = (o: FhirObservationInput) =>
    (o.code.coding ?? []).filter((c) => c.code && c.system && KNOWN_SYSTEMS.includes(c.system));
  const firstCodes = codes(first);
  if (firstCodes.length === 0)
    throw new AppError(
      'unprocessable',
      `The first observation has no LOINC (${LOINC_SYSTEM}), NPU (${NPU_SYSTEM}) or SNOMED CT (${SNOMED_SYSTEM}) code`,
    );
  const key = (c: { system?: string; code?: string }) => `${c.system}|${c.code}`;
  const secondKeys = new Set(codes(second).map(key));
  if (!firstCodes.some((c) => secondKeys.has(key(c))))
    throw new AppError(
      'unprocessable',
      'The two observations do not share a code: they are not results of one test',
    );
  const s1 = first.subject?.reference;
  const s2 = second.subject?.reference;
  if (s1 && s2 && s1 !== s2)
    throw new AppError('unprocessable', `The two observations are of different subjects (${s1}, ${s2})`);
  const [u1, u2] = [unitOf(first), unitOf(second)];
  // Two units: the second result is converted to the first's by UCUM where it can (decision 092).
  if (u1 !== u2 && (u1 === null || u2 === null))
    throw new AppError(
      'unprocessable',
      `The two results are in different units (${u1 ?? 'none'}, ${u2 ?? 'none'}): give both a valueQuantity code in UCUM`,
    );
  const cva = decimal(p, 'analyticalCV');
  if (cva !== undefined && !(cva > 0 && cva <= 100))
    throw bad('analyticalCV must be greater than 0 and at most 100 (%)');
  const probability = decimal(p, 'probability') ?? 0.95;
  if (!(probability > 0.5 && probability <= RCV_PROBABILITY_MAX))
    throw bad(`probability must be greater than 0.5 and at most ${RCV_PROBABILITY_MAX}`);
  const direction = p.parameter.find((q) => q.name === 'direction')?.valueCode ?? 'either';
  if (direction !== 'either' && direction !== 'one')
    throw bad('direction must be the code "either" or "one"');
  const matrix = p.parameter.find((q) => q.name === 'matrix')?.valueString;
  const x1 = first.valueQuantity.value;
  const x2 = second.valueQuantity.value;
  if (!(x1 > 0)) throw bad('The first result must be greater than 0');
  if (!(x2 >= 0)) throw bad('The second result must be 0 or more');
  const queries = firstCodes
    .filter((c) => secondKeys.has(key(c)))
    .map((c): ChangeVerdictQuery => ({
      code: key(c),
      measurand: undefined,
      matrix,
      x1,
      x2,
      unit: u1 ?? undefined,
      unit2: u2 !== u1 ? (u2 ?? undefined) : undefined,
      // Not given: the desirable CVA (0.5·CVI), said in the answer.
      cva: cva ?? 'desirable',
      probability,
      direction,
      n1: 1,
      n2: 1,
    }));
  return { first, second, queries };
}
