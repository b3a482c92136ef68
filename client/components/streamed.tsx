// A section of a page whose data may arrive after the page's shell (server/render/streamed.ts):
// while it is on its way the fallback holds its place (busy for assistive technology); React's
// use() renders it when it comes, in the same response. In the browser the value is there
// already (the boot data, or a navigation's /_data), and it renders at once.
import { Suspense, use, type ReactNode } from 'react';
import type { Streamed as StreamedValue } from '../../shared/page-data.ts';
import { useI18n } from '../runtime/i18n.tsx';

export function Streamed<T>({
  value,
  fallback,
  children,
}: {
  value: StreamedValue<T>;
  /** What stands in its place meanwhile: its frame, no data (and no ids: both are in the document a moment). */
  fallback: ReactNode;
  children: (value: T) => ReactNode;
}) {
  return (
    <Suspense
      fallback={
        <div className="streamed-fallback" aria-busy="true">
          {fallback}
        </div>
      }
    >
      <Resolved value={value}>{children}</Resolved>
    </Suspense>
  );
}

/** The value once it has come: suspends the server's render until then. */
function Resolved<T>({ value, children }: { value: StreamedValue<T>; children: (value: T) => ReactNode }) {
  return children(value instanceof Promise ? use(value) : value);
}

/** The frame of a section on its way: its title and a word that it is loading. */
export function StreamedSection({ title }: { title: string }) {
  const { t } = useI18n();
  return (
    <section className="section" aria-label={title}>
      <div className="container">
        <h2>{title}</h2>
        <p className="streamed-loading">{t('layout.loading')}</p>
      </div>
    </section>
  );
}
