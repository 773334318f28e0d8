import {
  copyMenu,
  deleteMenu,
  getKeptMenu,
  listMyMenus,
  saveMenu,
  updateMenu,
  type CopyMenuBodyIn,
  type SaveMenuBodyIn,
  type UpdateMenuBodyIn,
} from '@bvdb/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, urlFor } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { queryKeys } from '../../../lib/query-keys';

/** A kept menu opened again: its lines, today's sheet and what changed since (decision 064). */
export const keptMenuQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.keptMenu(id),
    queryFn: () => apiCall(getKeptMenu, { params: { id } }),
    retry: false,
    // Judged again on today's data each time, and "mine" is per visitor: rendered in the browser.
    meta: { ssr: false },
  });

/** The signed-in user's kept menus, the last changed first. */
export const myMenusQuery = (page: number) =>
  queryOptions({
    queryKey: queryKeys.myMenusPage(page),
    queryFn: () => apiCall(listMyMenus, { query: { page, per_page: 20 } }),
    meta: { ssr: false },
  });

/** The sheet of a kept menu as a workbook (a plain GET: a link downloads it). */
export const keptMenuSheetUrl = (id: string) =>
  urlFor(getKeptMenu, { params: { id }, query: { format: 'xlsx' } });

/** Keeps a menu: a visitor's in its link, a signed-in user's as theirs (with the session's CSRF token). */
export function useSaveMenu() {
  const { csrf_token: csrfToken } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveMenuBodyIn) => apiCall(saveMenu, { body, csrfToken }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.myMenus }),
  });
}

/** Rename a menu or keep today's values (mark as reviewed), at the version seen. */
export function useUpdateMenu(id: string) {
  const { csrf_token: csrfToken } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMenuBodyIn) => apiCall(updateMenu, { params: { id }, body, csrfToken }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.keptMenu(id) }),
        client.invalidateQueries({ queryKey: queryKeys.myMenus }),
      ]),
  });
}

export function useDeleteMenu() {
  const { csrf_token: csrfToken } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(deleteMenu, { params: { id }, csrfToken }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.myMenus }),
  });
}

/** Saves a menu opened from its link as the signed-in user's own named menu (the link stays as it is). */
export function useCopyMenu(id: string) {
  const { csrf_token: csrfToken } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CopyMenuBodyIn) => apiCall(copyMenu, { params: { id }, body, csrfToken }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.myMenus }),
  });
}

export const useKeptMenu = (id: string) => useQuery(keptMenuQuery(id));
/** The signed-in user's kept menus (`enabled: false` for a visitor: nothing asked). */
export const useMyMenus = (page: number, { enabled }: { enabled: boolean }) =>
  useQuery({ ...myMenusQuery(page), enabled });
