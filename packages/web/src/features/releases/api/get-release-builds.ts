import { v1ReleaseBuilds } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The latest builds with their status and mailing (staff); looked at again while one is building. */
export const releaseBuildsQuery = queryOptions({
  queryKey: queryKeys.releaseBuilds,
  queryFn: () => apiCall(v1ReleaseBuilds),
  refetchInterval: (query) => (query.state.data?.data.some((b) => b.status === 'building') ? 2000 : false),
  // Per visitor (staff only): never part of the server-rendered page.
  meta: { ssr: false },
});

export const useReleaseBuilds = () => useQuery(releaseBuildsQuery);
