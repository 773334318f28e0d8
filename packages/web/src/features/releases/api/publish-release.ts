import { v1PublishRelease } from '@bvdb/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { queryKeys } from '../../../lib/query-keys';

/** A curator's "Publish a release": the server answers at once and builds in the background. */
export function usePublishRelease() {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(v1PublishRelease, { csrfToken }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.releaseBuilds }),
  });
}
