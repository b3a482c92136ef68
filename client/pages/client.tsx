import { AreaHome } from '../projects/area-home.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/client.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function ClientPage({ data, user }: PageProps<LoaderData<typeof loader>>) {
  const { t } = useI18n();
  return <AreaHome area="client" lists={data.lists} user={user} empty={t('projects.area.emptyOwner')} />;
}
