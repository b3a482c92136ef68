import { ErrorView } from '../components/error-view.tsx';
import { useI18n } from '../runtime/i18n.tsx';

/** /notFound: the error page's 404, served with status 404. */
export default function NotFoundPage() {
  const { t } = useI18n();
  return <ErrorView error={{ status: 404, message: t('errors.notFound') }} />;
}
