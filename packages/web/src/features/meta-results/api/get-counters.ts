import {
  getCounters,
  listMetaCalculations,
  V1_MAX_LIMIT,
  v1ListMetas,
  v1MetasOfMeasurand,
} from '@bvdb/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

export const countersQuery = queryOptions({ queryKey: ['counters'], queryFn: () => apiCall(getCounters) });

/** Every displayed result (the list page shows them all), read page by page from the v1 API. */
export const metaListQuery = queryOptions({
  queryKey: ['meta-list'],
  queryFn: async () => {
    const first = await apiCall(v1ListMetas, { query: { limit: V1_MAX_LIMIT } });
    const data = [...first.data];
    for (let next = first.meta.next_offset; next !== null;) {
      const page = await apiCall(v1ListMetas, { query: { limit: V1_MAX_LIMIT, offset: next } });
      data.push(...page.data);
      next = page.meta.next_offset;
    }
    return { data, total: first.meta.total };
  },
});

/**
 * The displayed estimates as `/api/meta_calculations` answers them: one entry per measurand with the
 * CVI and CVG of its headline matrix (decision 007). The list page puts these in its main table.
 */
export const headlineMetasQuery = queryOptions({
  queryKey: ['meta-calculations'],
  queryFn: () => apiCall(listMetaCalculations),
});

/** One measurand's results, every matrix, with the datasets behind each (v1: `matrix` is the name). */
export const metaByAnalyteQuery = (id: number) =>
  queryOptions({
    queryKey: ['meta-by-analyte', id],
    queryFn: () => apiCall(v1MetasOfMeasurand, { params: { id } }),
  });

/**
 * The same results as they were at a moment (the estimates' history, issue 29.4): a pinned
 * release's values (issue 30.3). A key of its own, and never part of the server-rendered page.
 */
export const metaByAnalyteAsOfQuery = (id: number, asOf: string) =>
  queryOptions({
    queryKey: ['meta-by-analyte-as-of', id, asOf],
    queryFn: () => apiCall(v1MetasOfMeasurand, { params: { id }, query: { as_of: asOf } }),
    meta: { ssr: false },
  });
