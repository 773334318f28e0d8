import { createRequire } from 'node:module';

/**
 * UCUM for the change verdict (issue 45.4, decision 092): is a unit string UCUM, and by what factor
 * does a result in one unit become a result in another. `@lhncbc/ucum-lhc` (NLM, BSD-style licence
 * with the UCUM notice) answers; it takes about 0.7 s and 30 MB to load its tables, so it is loaded
 * only in a change-verdict thread, by the threads' warm-up once the server is ready (or on first use
 * before that): the server's start and its event loop never pay it.
 *
 * What is converted (one rule, no guess):
 * - units UCUM finds commensurable by themselves (mg/dL → g/L, U/L → µkat/L, 10*9/L → 10*3/uL);
 * - never mass ↔ substance (mg/dL ↔ mmol/L): UCUM needs the substance's molar mass, and bvdb holds
 *   none, so none is invented: 422 saying so;
 * - never between two different dimensionless units (% ↔ mmol/mol): UCUM would multiply by 10, but
 *   for HbA1c NGSP % and IFCC mmol/mol are two scales with no linear relation; a ratio's unit names
 *   its scale;
 * - never when the units' annotations differ (`{1.73_m2}`): UCUM reads an annotation as 1, a
 *   laboratory as meaning;
 * - never a special unit (Cel, [pH]): a change in % of such a value is not what an RCV judges.
 */
export type UnitCheck = { ok: true } | { ok: false; message: string };
export type UnitFactor = { ok: true; factor: number } | { ok: false; message: string };

interface UcumUnit {
  isSpecial_: boolean;
  dim_: { dimVec_: number[] } | null;
}
interface UcumUtils {
  validateUnitString(unit: string): { status: string; msg: string[] };
  convertUnitTo(
    from: string,
    value: number,
    to: string,
  ): { status: string; toVal: number | null; msg: string[]; fromUnit?: UcumUnit; toUnit?: UcumUnit };
}

let utils: UcumUtils | undefined;
/** The library, loaded on first use (CommonJS: its tables are read once, synchronously). */
function ucum(): UcumUtils {
  if (!utils) {
    const require = createRequire(import.meta.url);
    const pkg = require('@lhncbc/ucum-lhc') as { UcumLhcUtils: { getInstance(): UcumUtils } };
    utils = pkg.UcumLhcUtils.getInstance();
  }
  return utils;
}

/**
 * The UCUM form of a unit as laboratories and bvdb's own pages write it: the micro sign (µ or μ) is
 * UCUM's `u`, and a power of ten written `×10^9/L`, `x10^9/L` or `10^9/L` is UCUM's `10*9/L`. What
 * is already UCUM is unchanged; anything else is still checked by UCUM and refused if it is not.
 */
export function ucumForm(unit: string): string {
  return unit
    .trim()
    .replace(/[µμ]/g, 'u')
    .replace(/^[x×]\s*(?=10\^)/i, '')
    .replace(/10\^(-?\d+)/g, '10*$1');
}

export const notUcumMessage = (name: string, unit: string) =>
  `${name} "${unit}" is not a UCUM unit (e.g. mg/dL, mmol/L, 10*9/L, %): see ucum.org`;

const checks = new Map<string, UnitCheck>();
const factors = new Map<string, UnitFactor>();
/** Kept answers per distinct unit or pair: a laboratory sends few; a hostile caller cannot grow them past this. */
const KEPT = 5000;

function keep<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= KEPT) map.clear();
  map.set(key, value);
  return value;
}

/** Whether `unit` is UCUM (the answer kept per string). */
export function checkUnit(unit: string, name = 'unit'): UnitCheck {
  const key = `${name}\u0000${unit}`;
  const kept = checks.get(key);
  if (kept) return kept;
  const valid = ucum().validateUnitString(ucumForm(unit)).status === 'valid';
  return keep(checks, key, valid ? { ok: true } : { ok: false, message: notUcumMessage(name, unit) });
}

const annotations = (unit: string) =>
  [...unit.matchAll(/\{[^}]*\}/g)]
    .map((m) => m[0])
    .sort()
    .join('');
const dimensionless = (u: UcumUnit | undefined) => !!u?.dim_ && u.dim_.dimVec_.every((d) => d === 0);

/** The factor that turns a result in `from` into one in `to`, or why there is none (kept per pair). */
export function unitFactor(from: string, to: string): UnitFactor {
  const key = `${from}\u0000${to}`;
  const kept = factors.get(key);
  if (kept) return kept;
  for (const [name, unit] of [
    ['unit2', from],
    ['unit', to],
  ] as const) {
    const check = checkUnit(unit, name);
    if (!check.ok) return keep(factors, key, check);
  }
  const found = findFactor(from, to);
  return keep(
    factors,
    key,
    found.ok
      ? found
      : {
          ok: false,
          message: `x2 in ${from} cannot be compared with x1 in ${to}: ${found.why}; send both results in one unit`,
        },
  );
}

const scaleChecks = new Map<string, UnitCheck>();

/**
 * Whether a result in `unit` is on the scale its code names (`measurand_codes.ucum_unit`, issue 45):
 * the same unit, or one UCUM converts to the scale by the rules above (mg/dL on a g/L code is fine,
 * mmol/L on a mass-concentration code is not). A scale UCUM cannot read is not held against the
 * caller: nothing is checked then. `unit` itself is checked first (`checkUnit`).
 */
export function checkScale(unit: string, scale: { code: string; unit: string }): UnitCheck {
  const key = `${unit}\u0000${scale.unit}\u0000${scale.code}`;
  const kept = scaleChecks.get(key);
  if (kept) return kept;
  const check = (): UnitCheck => {
    const given = checkUnit(unit);
    if (!given.ok) return given;
    if (ucumForm(unit) === ucumForm(scale.unit) || !checkUnit(scale.unit).ok) return { ok: true };
    const found = findFactor(unit, scale.unit);
    return found.ok
      ? { ok: true }
      : {
          ok: false,
          message: `The code ${scale.code} is on the scale ${scale.unit}; the unit given, ${unit}, is not commensurable with it: ${found.why}; send the result on the code’s scale, or use the code of the scale ${unit} is on`,
        };
  };
  return keep(scaleChecks, key, check());
}

/** The factor between two UCUM units, or why there is none (both already checked as UCUM). */
function findFactor(from: string, to: string): { ok: true; factor: number } | { ok: false; why: string } {
  const cannot = (why: string) => ({ ok: false, why }) as const;
  const [ucumFrom, ucumTo] = [ucumForm(from), ucumForm(to)];
  if (annotations(ucumFrom) !== annotations(ucumTo))
    return cannot('their annotations differ ({…} means something to a laboratory, nothing to UCUM)');
  const answer = ucum().convertUnitTo(ucumFrom, 1, ucumTo);
  if (answer.status !== 'succeeded' || answer.toVal === null) {
    const molar = answer.msg.some((m) => /mass and moles|molecular weight/i.test(m));
    return cannot(
      molar
        ? 'converting between mass and substance needs the molar mass, and bvdb holds none for a measurand'
        : 'UCUM finds the units not commensurable',
    );
  }
  if (answer.fromUnit?.isSpecial_ || answer.toUnit?.isSpecial_)
    return cannot('one is a special unit (an offset or a log scale), on which a change in % is not judged');
  if (dimensionless(answer.fromUnit) && dimensionless(answer.toUnit))
    return cannot(
      'both are dimensionless ratios, and a ratio’s unit names its scale (HbA1c in % and in mmol/mol are different scales)',
    );
  if (!(Number.isFinite(answer.toVal) && answer.toVal > 0)) return cannot('UCUM gives no usable factor');
  return { ok: true, factor: answer.toVal };
}
