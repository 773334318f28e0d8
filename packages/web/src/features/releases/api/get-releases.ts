import { v1Releases } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The published releases, newest first (server-rendered on /releases). */
export const releasesQuery = queryOptions({
  queryKey: queryKeys.releases,
  queryFn: () => apiCall(v1Releases),
});

export const useReleases = () => useQuery(releasesQuery);
