import {
  calculateAps,
  formatFixed,
  rangeOverLimits,
  type ApsLevel,
  type ApsResult,
  type WorkbenchEstimate,
} from '@bvdb/domain';
import Table from 'react-bootstrap/Table';

const LEVELS: [string, keyof ApsResult][] = [
  ['Optimal', 'optimal'],
  ['Desirable', 'desirable'],
  ['Minimum', 'minimum'],
];

const COLUMNS: [string, keyof ApsLevel, boolean][] = [
  ['CVa (%)', 'imprecision', false],
  ['Bias (%)', 'bias', true],
  ['MAU (%, k = 2)', 'mau', false],
  ['TE (%)', 'totalError', true],
];

/** What the limits are, as a caption says it: "95 % CI" or "range" of both estimates, or a mix. */
function limitsPhrase(cvi: WorkbenchEstimate, cvg: WorkbenchEstimate | null): string {
  const kinds = [cvi, cvg].filter((e) => e && e.lower !== null && e.upper !== null).map((e) => e!.limits);
  if (kinds.length === 0) return '';
  return kinds.every((k) => k === '95 % CI')
    ? '95 % CIs'
    : kinds.every((k) => k === 'range')
      ? 'ranges'
      : 'limits';
}

/**
 * The APS over the estimates' limits (issue 32.5): each specification computed with CVI and CVG
 * replaced by their lower and upper limits (`rangeOverLimits`: exact, the APS rise with each), in
 * its own table under the point values, labelled by what the limits are (a 95 % CI or the range of
 * the studies). Bias and TE need a CVG with limits; CVa and MAU depend on the CVI alone.
 */
export function ApsRanges({ cvi, cvg }: { cvi: WorkbenchEstimate; cvg: WorkbenchEstimate | null }) {
  const phrase = limitsPhrase(cvi, cvg);
  if (!phrase) return null;
  const cell = (level: keyof ApsResult, key: keyof ApsLevel, needsCvg: boolean) => {
    const range = needsCvg
      ? cvg
        ? rangeOverLimits((i, g) => calculateAps(i, g)[level][key], cvi, cvg)
        : null
      : rangeOverLimits((i) => calculateAps(i, 0)[level][key], cvi, null);
    return range ? `${formatFixed(range.lower, 1)} – ${formatFixed(range.upper, 1)}` : '—';
  };
  return (
    <Table bordered size="sm" className="mb-2" data-testid="aps-ranges">
      <caption className="caption-top">
        The same specifications over the estimates' {phrase} (lowest – highest, %)
      </caption>
      <thead>
        <tr>
          <th scope="col">Level</th>
          {COLUMNS.map(([label, key]) => (
            <th key={key} scope="col">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {LEVELS.map(([label, level]) => (
          <tr key={level}>
            <th scope="row">{label}</th>
            {COLUMNS.map(([, key, needsCvg]) => (
              <td key={key} data-testid={`aps-range-${level}-${key}`}>
                {cell(level, key, needsCvg)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
