import { AreaHome } from '../projects/area-home.tsx';
import { ExpertiseForm } from '../projects/expertise-form.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/expert.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function ExpertPage({ data, user, form }: PageProps<LoaderData<typeof loader>>) {
  const { t } = useI18n();
  return (
    <AreaHome area="expert" lists={data.lists} user={user} empty={t('projects.area.emptyExpert')}>
      {data.expertise && <ExpertiseForm key={data.expertise.updatedAt ?? 'new'} expertise={data.expertise} form={form} />}
    </AreaHome>
  );
}
