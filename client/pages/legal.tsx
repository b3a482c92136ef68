import { FormattedDate } from '../components/formatted-date.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/legal.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

export default function LegalPage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { document } = data;
  return (
    <article className="container page prose" lang={document.locale === locale ? undefined : document.locale}>
      <h1>{document.title}</h1>
      <p className="post-meta">
        {t('legal.updated')} <FormattedDate date={document.updated} />
      </p>
      {/* Sanitised on the server when the Markdown was loaded (server/content/markdown.ts). */}
      <div dangerouslySetInnerHTML={{ __html: document.html }} />
    </article>
  );
}
