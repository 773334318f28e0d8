import type { MenuResponse, MenuTestResult } from '@bvdb/contract';
import type { MenuKeptEstimate, MenuKeptTest } from '@bvdb/domain';

const estimate = (e: MenuTestResult['estimate']): MenuKeptEstimate | null =>
  e
    ? {
        estimate_id: e.estimate_id,
        version: e.version,
        median: e.median,
        lower: e.lower,
        upper: e.upper,
        n: e.number_used,
      }
    : null;

const point = (m: NonNullable<MenuTestResult['specs']>['desirable']) => ({
  imprecision: m.imprecision.value,
  bias: m.bias.value,
  total_error: m.total_error.value,
  mau: m.mau.value,
});

/** One test's values as kept with a menu: the numbers the sheet shows that a change of the data moves. */
export function keptValueOf(t: MenuTestResult): MenuKeptTest {
  return {
    line: t.line,
    label: t.input.name ?? t.input.code ?? `line ${t.line}`,
    match: t.match,
    cvi: estimate(t.estimate),
    cvg: estimate(t.estimate_cvg),
    specs: t.specs
      ? {
          optimal: point(t.specs.optimal),
          desirable: point(t.specs.desirable),
          minimum: point(t.specs.minimum),
        }
      : null,
    aps_met: t.aps_met,
    sigma: t.sigma,
    rcv: t.rcv,
    ii: t.ii,
    ii_with_cva: t.ii_with_cva,
    prri_useful: t.prri_useful,
  };
}

export const keptValuesOf = (sheet: MenuResponse): MenuKeptTest[] => sheet.tests.map(keptValueOf);
