import { AreaHome } from '../projects/area-home.tsx';
import { useI18n } from '../i18n.tsx';
import type { PageProps } from './registry.ts';

export default function ClientPage({ data, user }: PageProps<'client'>) {
  const { t } = useI18n();
  return <AreaHome area="client" data={data} user={user} empty={t('projects.area.emptyOwner')} />;
}
