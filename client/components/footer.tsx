import { Link } from 'react-router-dom';
import { localePath } from '../../shared/routes.ts';
import { legalName, type PageBrand } from '../../shared/brand.ts';
import { intlLocale, type Locale } from '../../shared/locales.ts';
import { COMPANY_TIME_ZONE } from '../../shared/time-zone.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { PRACTICES } from '../../shared/practices.ts';
import { practicePagePath } from './practices.tsx';

const FOOTER_LINKS = ['legal', 'privacy', 'cookies', 'responsible', 'Contact', 'search'] as const;

// One formatter per locale, made on first use: a formatter costs tens of microseconds to make,
// and every page that is rendered shows the footer.
const yearFormats = new Map<Locale, Intl.DateTimeFormat>();

/** This year in Madrid, where the company is (the same on the server and in the browser, whatever their zones). */
function yearNow(locale: Locale): string {
  let format = yearFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), { year: 'numeric', numberingSystem: 'latn', timeZone: COMPANY_TIME_ZONE });
    yearFormats.set(locale, format);
  }
  return format.format(new Date());
}

/** The company (brand/: logo, tagline, contact details), the practices, then the legal pages and the cookie settings. */
export function Footer({ siteName, brand, onCookieSettings }: { siteName: string; brand: PageBrand; onCookieSettings: () => void }) {
  const { t, locale } = useI18n();
  return (
    <footer className="footer">
      <div className="footer-inner">
        <div className="footer-identity">
          <p className="footer-brand">
            {/* The footer is dark in both themes: the logo with light ink. */}
            {/* Lazy: below the fold (and React then adds no preload of it to the head). */}
            <img src={brand.logos.dark} alt="" width="32" height="32" loading="lazy" />
            <span>{siteName}</span>
          </p>
          <p className="footer-tagline">{brand.tagline[locale]}</p>
        </div>
        <address className="footer-contact">
          <p className="footer-heading">{t('footer.contact')}</p>
          <p>
            <a href={`mailto:${brand.email}`}>{brand.email}</a>
            <a href={brand.phone.href}>{brand.phone.text}</a>
          </p>
          {/* Lines kept by CSS (white-space: pre-line). */}
          <p className="footer-lines">{brand.address[locale].join('\n')}</p>
          {brand.hours[locale].length > 0 && <p className="footer-lines">{brand.hours[locale].join('\n')}</p>}
        </address>
        <nav aria-labelledby="footer-practices" className="footer-practices">
          <p id="footer-practices" className="footer-heading">
            {t('footer.practices')}
          </p>
          <ul className="footer-links">
            {PRACTICES.map((practice) => (
              <li key={practice}>
                <Link to={practicePagePath(practice, locale)}>{t(`home.services.items.${practice}.title`)}</Link>
              </li>
            ))}
            <li>
              <Link to={localePath('case-studies', locale)}>{t('footer.caseStudies')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.label')}>
          <ul className="footer-links">
            {FOOTER_LINKS.map((base) => (
              <li key={base}>
                <Link to={localePath(base, locale)}>{t(`footer.links.${base}`)}</Link>
              </li>
            ))}
            <li>
              <button type="button" className="link-button footer-link-button" onClick={onCookieSettings}>
                {t('footer.cookieSettings')}
              </button>
            </li>
          </ul>
        </nav>
      </div>
      <p className="footer-copyright">
        © {yearNow(locale)} {legalName(brand.legalName, siteName)}
      </p>
    </footer>
  );
}
