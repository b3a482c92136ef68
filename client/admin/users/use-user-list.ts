// The users as the console's users and branding pages list them: the server's page first, then
// searched and paged through the API; each page's address (`?q=&page=`) works without JavaScript.
import type { UserList } from '../../../shared/page-data.ts';
import { fetchUsers } from '../api.ts';
import { usePagedList } from '../use-paged-list.ts';

export function useUserList(initial: UserList, initialQuery: string) {
  // The server-rendered page is the initial state: nothing is fetched on mount.
  const users = usePagedList<UserList, string>({
    initial,
    query: initialQuery,
    fetchPage: (q, page) => fetchUsers(q, page, initial.pageSize),
  });
  // Rendered from the server's page, so never null.
  const { list, query } = users.shown ?? { list: initial, query: initialQuery };
  const pageHref = (page: number) => `?${new URLSearchParams({ ...(query ? { q: query } : {}), page: String(page) })}`;
  return { users, list, query, pageHref };
}
