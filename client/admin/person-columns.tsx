// The columns every console table of people starts with (users, deletion requests): one
// place for their order and their headings.
import { useI18n } from '../runtime/i18n.tsx';

export function PersonHeadCells() {
  const { t } = useI18n();
  return (
    <>
      <th scope="col">{t('adminConsole.list.userName')}</th>
      <th scope="col">{t('adminConsole.list.name')}</th>
      <th scope="col">{t('adminConsole.list.email')}</th>
      <th scope="col">{t('adminConsole.list.role')}</th>
    </>
  );
}
