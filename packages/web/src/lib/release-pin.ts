import type { MetaRecord } from '@bvdb/contract';

/** The releases' versions and dates, newest first (GET /api/v1/releases). */
export interface ReleaseStamp {
  version: string;
  published_at: string;
}

/**
 * The release a current value is in, for its citation (issue 30.3): the newest release, when the
 * value has not changed since it was published (a result's `updated_at` moves only when what it
 * shows changes, decision 052); null when it changed after it, or there is no release yet.
 */
export function releaseOfValue(updatedAt: string, releases: readonly ReleaseStamp[]): string | null {
  const newest = releases[0];
  if (!newest) return null;
  return Date.parse(updatedAt) <= Date.parse(newest.published_at) ? newest.version : null;
}

/** `?as_of=` as the API's `as_of`: a day (YYYY-MM-DD) or an ISO 8601 instant. */
export const AS_OF_PARAM = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A release's version as a permalink writes it; anything else is not a release. */
export const RELEASE_PARAM = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(\.[1-9][0-9]{0,3})?$/;

/** A measurand's result with the stable id of its estimate (v1 answers carry it). */
export type PinnableMeta = MetaRecord & { estimate_id: number | null };

export interface PinnedDifference {
  /** "Serum CVI". */
  label: string;
  pinned: PinnableMeta | null;
  current: PinnableMeta | null;
}

const sameValue = (a: PinnableMeta, b: PinnableMeta) =>
  a.median === b.median && a.lower === b.lower && a.upper === b.upper && a.number_used === b.number_used;

/**
 * The estimates whose value now differs from the pinned release's (by estimate id: the stable id
 * of measurand × matrix × CVI/CVG), including those added or withdrawn since.
 */
export function pinnedDifferences(
  pinned: readonly PinnableMeta[],
  current: readonly PinnableMeta[],
  labelOf: (m: PinnableMeta) => string,
): PinnedDifference[] {
  const keyOf = (m: PinnableMeta) =>
    m.estimate_id !== null ? `e${m.estimate_id}` : `${m.matrix}|${m.var_type}`;
  const now = new Map(current.map((m) => [keyOf(m), m]));
  const then = new Map(pinned.map((m) => [keyOf(m), m]));
  const out: PinnedDifference[] = [];
  for (const [key, p] of then) {
    const c = now.get(key) ?? null;
    if (!c || !sameValue(p, c)) out.push({ label: labelOf(p), pinned: p, current: c });
  }
  for (const [key, c] of now) if (!then.has(key)) out.push({ label: labelOf(c), pinned: null, current: c });
  return out;
}
