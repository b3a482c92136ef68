import { useBrand } from '../brand.tsx';
import { useI18n } from '../i18n.tsx';

/** The company's e-mail, phone, office and opening hours (brand/brand.json), for the contact page. */
export function ContactDetails() {
  const { t, locale } = useI18n();
  const brand = useBrand();
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
            <address>
              {brand.address[locale].map((line, i) => (
                <span key={i} className="contact-direct-line">
                  {line}
                </span>
              ))}
            </address>
          </dd>
        </div>
        {hours.length > 0 && (
          <div>
            <dt>{t('contact.direct.hours')}</dt>
            <dd>
              {hours.map((line, i) => (
                <span key={i} className="contact-direct-line">
                  {line}
                </span>
              ))}
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}
