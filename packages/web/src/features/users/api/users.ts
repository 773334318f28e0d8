import {
  createUserRoute,
  listUsers,
  resetUserPassword,
  updateUser,
  type CreateUserBody,
  type Role,
} from '@bvdb/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { queryKeys } from '../../../lib/query-keys';

export const usersQuery = queryOptions({ queryKey: queryKeys.users, queryFn: () => apiCall(listUsers) });

/** Create, change role or (de)activate, and reset a password; each refetches the list. */
export function useUserMutations() {
  const { csrf_token: csrfToken } = useSession();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.users });
  return {
    create: useMutation({
      mutationFn: (body: CreateUserBody) => apiCall(createUserRoute, { body, csrfToken }),
      onSettled: refresh,
    }),
    update: useMutation({
      mutationFn: (v: { id: number; version: number; role?: Role; active?: boolean }) =>
        apiCall(updateUser, {
          params: { id: v.id },
          body: { version: v.version, role: v.role, active: v.active },
          csrfToken,
        }),
      onSettled: refresh,
    }),
    resetPassword: useMutation({
      mutationFn: (v: { id: number; password: string }) =>
        apiCall(resetUserPassword, { params: { id: v.id }, body: { password: v.password }, csrfToken }),
    }),
  };
}

export const useUsers = () => useQuery(usersQuery);
