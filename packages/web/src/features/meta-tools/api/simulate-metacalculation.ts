import { simulateMetacalculation, type MetaInputRow } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Rows through the configured statistics service (the server honours STATS_URL). */
export const runMetacalculation = (
  rows: MetaInputRow[],
  csrfToken: string | null,
  opts: { seed?: number | null; signal?: AbortSignal } = {},
) =>
  apiCall(simulateMetacalculation, {
    body: { rows, ...(opts.seed !== null && opts.seed !== undefined ? { seed: opts.seed } : {}) },
    csrfToken,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });

/** The simulator's calculation of one type (CVI or CVG) from the validated rows. */
export const simulateMetaQuery = (type: 'cvi' | 'cvg', input: MetaInputRow[], csrfToken: string | null) =>
  queryOptions({
    queryKey: queryKeys.simulateMeta(type, input),
    queryFn: ({ signal }) => runMetacalculation(input, csrfToken, { signal }),
    retry: false,
  });

/** A stored result calculated again from its own rows and seed (the checker). */
export const checkedMetaQuery = (
  meta: { id: number; computed_at: string; seed: number | null },
  rows: MetaInputRow[],
  csrfToken: string | null,
) =>
  queryOptions({
    queryKey: queryKeys.checkedMeta(meta.id, meta.computed_at),
    queryFn: ({ signal }) => runMetacalculation(rows, csrfToken, { seed: meta.seed, signal }),
    retry: false,
  });

export const useSimulateMeta = (type: 'cvi' | 'cvg', input: MetaInputRow[], csrfToken: string | null) =>
  useQuery(simulateMetaQuery(type, input, csrfToken));
export const useCheckedMeta = (
  meta: { id: number; computed_at: string; seed: number | null },
  rows: MetaInputRow[],
  csrfToken: string | null,
) => useQuery(checkedMetaQuery(meta, rows, csrfToken));
