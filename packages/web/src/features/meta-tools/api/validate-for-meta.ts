import { validateForMeta } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const validateDatasets = (ids: number[], csrfToken: string | null, signal?: AbortSignal) =>
  apiCall(validateForMeta, { body: { ids }, csrfToken, ...(signal ? { signal } : {}) });

/** The ticked datasets checked for a meta-analysis (the simulator's first step). */
export const validateForMetaQuery = (ids: number[], csrfToken: string | null) =>
  queryOptions({
    queryKey: queryKeys.validateForMeta(ids),
    queryFn: ({ signal }) => validateDatasets(ids, csrfToken, signal),
    retry: false,
  });

export const useValidateForMeta = (ids: number[], csrfToken: string | null) =>
  useQuery(validateForMetaQuery(ids, csrfToken));
