import { CVA_MESSAGE, type ChangeVerdictQuery } from '@bvdb/contract';
import { changeVerdict, desirableCva, DomainInputError, type ChangeVerdict } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import { workbenchEstimateOf } from '../meta-analysis/index.js';
import type { FoundTest, TestLookup } from '../menu/index.js';

/** A verdict with what it was judged on: the test as found, and the CVA used and where it came from. */
export interface JudgedChange {
  found: FoundTest & { group: NonNullable<FoundTest['group']> };
  cva: number;
  cvaSource: 'given' | 'desirable';
  verdict: ChangeVerdict;
}

/** A measurand asked by id is looked up by its id (the catalogue knows each id as a code). */
const testOf = (q: ChangeVerdictQuery) => {
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
 * The change verdict of issue 45.4: the test found as the menu finds a line, its CVI estimate in
 * the matrix, and the domain's verdict. A test found nowhere is 404; one that cannot be judged
 * (ambiguous, no estimate in the matrix, no CVA) is 422 with why — nothing computed from a missing input.
 */
export async function judgeChange(tests: TestLookup, q: ChangeVerdictQuery): Promise<JudgedChange> {
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
  const cvi = workbenchEstimateOf(group.cvi);
  if (!cvi)
    throw new AppError('unprocessable', `${group.analyteName} has no CVI estimate in ${group.matrix}`);
  if (q.cva === undefined) throw new AppError('unprocessable', CVA_MESSAGE);
  const cvaSource = q.cva === 'desirable' ? 'desirable' : 'given';
  const cva = q.cva === 'desirable' ? desirableCva(cvi.median) : q.cva;
  try {
    const verdict = changeVerdict({
      cvi,
      cva,
      x1: q.x1,
      x2: q.x2,
      probability: q.probability,
      direction: q.direction,
      n1: q.n1,
      n2: q.n2,
    });
    return { found: { ...found, group }, cva, cvaSource, verdict };
  } catch (err) {
    if (err instanceof DomainInputError) throw new AppError('unprocessable', err.message);
    throw err;
  }
}
