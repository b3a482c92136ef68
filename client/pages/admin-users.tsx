import { ConsolePage } from '../admin/console-page.tsx';
import { UsersScreen } from '../admin/users/users-screen.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/admin-users.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The admin console's users: search, paging, each row's menu, "New user" (client/admin/users/). */
export default function AdminUsersPage({ data, user }: PageProps<LoaderData<typeof loader>>) {
  return (
    <ConsolePage current="admin-users">
      <UsersScreen users={data.users} query={data.query} invite={data.invite} user={user} headingId="admin-users-title" />
    </ConsolePage>
  );
}
