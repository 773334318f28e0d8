/**
 * What a result's lower and upper limits are (issue 27.7): a 95 % confidence interval (the
 * percentile bootstrap of N > 10 studies, or the one study's own CI when N = 1) or the range
 * (min–max) of the study estimates (2 ≤ N ≤ 10); null without a result. The spec's headers "lower /
 * higher CI limit" stay; this tag says which the pair is, wherever the pair is shown or exported.
 */
export type LimitsKind = '95 % CI' | 'range';

export const LIMITS_KINDS = ['95 % CI', 'range'] as const satisfies readonly LimitsKind[];

export function limitsKindOf(method: string): LimitsKind | null {
  switch (method) {
    case 'bootstrap':
    case 'single':
      return '95 % CI';
    case 'range':
      return 'range';
    default:
      return null;
  }
}

/** The tag as a reader meets it after the two limits: "(95 % CI)", "(range)", or nothing. */
export const limitsTag = (method: string): string => {
  const kind = limitsKindOf(method);
  return kind ? `(${kind})` : '';
};
