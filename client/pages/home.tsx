import { Link } from '../runtime/router.tsx';
import { localePath } from '../../shared/routes.ts';
import { roleArea } from '../../shared/user.ts';
import { useI18n } from '../i18n.tsx';
import type { PageProps } from './registry.ts';

const SERVICES = ['digital', 'data', 'sustainability', 'compliance'] as const;
const STEPS = ['clients', 'organizations', 'experts'] as const;

export default function HomePage({ user }: PageProps<'home'>) {
  const { t, locale } = useI18n();
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container">
          <p className="eyebrow">{t('home.hero.eyebrow')}</p>
          <h1 id="hero-title">{t('home.hero.title')}</h1>
          <p className="lead">{t('home.hero.lead')}</p>
          <p className="actions">
            <Link className="button button-primary" to={localePath('Contact', locale)}>
              {t('home.hero.primary')}
            </Link>
            <Link className="button button-secondary" to={localePath('blog', locale)}>
              {t('home.hero.secondary')}
            </Link>
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="services-title">
        <div className="container">
          <h2 id="services-title">{t('home.services.title')}</h2>
          <p className="section-lead">{t('home.services.lead')}</p>
          <ul className="cards">
            {SERVICES.map((key) => (
              <li key={key} className="card">
                <h3>{t(`home.services.items.${key}.title`)}</h3>
                <p>{t(`home.services.items.${key}.text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="how-title">
        <div className="container">
          <h2 id="how-title">{t('home.how.title')}</h2>
          <ol className="steps">
            {STEPS.map((key) => (
              <li key={key} className="step">
                <h3>{t(`home.how.items.${key}.title`)}</h3>
                <p>{t(`home.how.items.${key}.text`)}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section cta" aria-labelledby="cta-title">
        <div className="container">
          <h2 id="cta-title">{t('home.cta.title')}</h2>
          <p>{t('home.cta.text')}</p>
          <p className="actions">
            <Link className="button button-primary" to={localePath('Contact', locale)}>
              {t('home.cta.button')}
            </Link>
            {/* Signed in, /login would bounce the user home: their area instead (a role with
                none, their profile, the one private page every role has). */}
            <Link className="button button-secondary" to={localePath(user ? (roleArea(user.role) ?? 'profile') : 'login', locale)}>
              {t('home.cta.login')}
            </Link>
          </p>
        </div>
      </section>
    </>
  );
}
