import { latestMetaJobs, listQueueJobs, startMetaRecompute } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const queueJobsQuery = queryOptions({
  queryKey: queryKeys.queueJobs,
  queryFn: ({ signal }) => apiCall(listQueueJobs, { signal }),
  refetchInterval: 2000,
});

export const latestMetaJobsQuery = queryOptions({
  queryKey: queryKeys.latestMetaJobs,
  queryFn: ({ signal }) => apiCall(latestMetaJobs, { signal }),
});

/** POST /api/meta_calculations/recompute: both jobs, queued. */
export const startRecompute = (csrfToken: string | null) =>
  apiCall(startMetaRecompute, { body: {}, csrfToken });

export const useQueueJobs = () => useQuery(queueJobsQuery);
export const useLatestMetaJobs = () => useQuery(latestMetaJobsQuery);
