import type { PageBrand } from '../../shared/brand.ts';
import { useI18n } from '../runtime/i18n.tsx';

/** The company's e-mail, phone, office and opening hours (brand/brand.json), for the contact page. */
export function ContactDetails({ brand }: { brand: PageBrand }) {
  const { t, locale } = useI18n();
  const hours = brand.hours[locale];
  return (
    <section className="contact-direct" aria-labelledby="contact-direct-title">
      <h2 id="contact-direct-title">{t('contact.direct.title')}</h2>
      <dl>
        <div>
          <dt>{t('contact.direct.email')}</dt>
          <dd>
            <a href={`mailto:${brand.email}`}>{brand.email}</a>
          </dd>
        </div>
        <div>
          <dt>{t('contact.direct.phone')}</dt>
          <dd>
            <a href={brand.phone.href}>{brand.phone.text}</a>
          </dd>
        </div>
        <div>
          <dt>{t('contact.direct.address')}</dt>
          <dd>
            <address className="contact-direct-lines">{brand.address[locale].join('\n')}</address>
          </dd>
        </div>
        {hours.length > 0 && (
          <div>
            <dt>{t('contact.direct.hours')}</dt>
            <dd className="contact-direct-lines">{hours.join('\n')}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}
