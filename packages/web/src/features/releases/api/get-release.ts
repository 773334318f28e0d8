import { v1Release } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** One published release by its version (a pinned permalink names it, issue 30.3). */
export const releaseQuery = (version: string) =>
  queryOptions({
    queryKey: queryKeys.release(version),
    queryFn: () => apiCall(v1Release, { params: { version } }),
    retry: false,
    meta: { ssr: false },
  });

/** The release a permalink pins, once there is one (`null`: no pin, nothing asked). */
export const useRelease = (version: string | null) =>
  useQuery({ ...releaseQuery(version ?? ''), enabled: version !== null });
