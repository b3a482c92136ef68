import { Link } from 'react-router-dom';
import type { CaseStudy, HomeContent, ResponsiveImage } from '../../shared/page-data.ts';
import { PRACTICES } from '../../shared/practices.ts';
import type { ProjectState } from '../../shared/projects.ts';
import { localePath } from '../../shared/routes.ts';
import { PracticeCard } from '../components/practices.tsx';
import { CaseStudyCard } from '../components/case-study-card.tsx';
import { Streamed, StreamedSection } from '../components/streamed.tsx';
import { useI18n } from '../runtime/i18n.tsx';
import type { LoaderData } from '../../shared/page-data.ts';
import type { loader } from '../../server/pages/home.ts';
import type { PageProps } from '../runtime/page-chunks.ts';

/** The hero's illustration: a file of layers, each coloured by the theme (see the file). */
const HERO_ART = '/hero-art.svg';
const ART_LAYERS = ['soft', 'surface', 'accent', 'ink', 'on-accent'] as const;

/** The private area's flow for the owner of a project: each step's state there. */
const CLIENT_STEPS: readonly ProjectState[] = ['brief', 'proposal', 'active', 'delivered', 'closed'];
const EXPERT_STEPS = ['profile', 'assigned', 'work', 'deliver'] as const;

/** Logos are shown at most this many CSS pixels high (client/styles/app.css: .logos img). */
const LOGO_HEIGHT = 44;

function HeroArt() {
  return (
    <svg className="hero-art" width="560" height="440" viewBox="0 0 560 440" aria-hidden="true" focusable="false">
      {ART_LAYERS.map((layer) => (
        <use key={layer} className={`art-${layer}`} href={`${HERO_ART}#${layer}`} width="560" height="440" />
      ))}
    </svg>
  );
}

function SampleNote() {
  const { t } = useI18n();
  return <p className="sample-note">{t('home.sample')}</p>;
}

function Logos({ logos, sample }: { logos: ResponsiveImage[]; sample: boolean }) {
  const { t } = useI18n();
  return (
    <section className="section logos-section" aria-labelledby="logos-title">
      <div className="container">
        <h2 id="logos-title" className="logos-title">
          {t('home.logos.title')}
        </h2>
        {sample ? <SampleNote /> : null}
        <ul className="logos">
          {logos.map((logo) => (
            <li key={logo.src}>
              <img
                src={logo.src}
                srcSet={logo.srcset}
                sizes={logo.srcset ? `${Math.ceil((LOGO_HEIGHT * logo.width) / logo.height)}px` : undefined}
                width={logo.width}
                height={logo.height}
                alt={logo.alt}
                loading="lazy"
                decoding="async"
              />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Figures({ content }: { content: HomeContent }) {
  const { t } = useI18n();
  return (
    <section className="section figures-section" aria-labelledby="figures-title">
      <div className="container">
        <h2 id="figures-title">{t('home.results.figures')}</h2>
        {content.sample ? <SampleNote /> : null}
        <ul className="figures">
          {content.figures.map((figure) => (
            <li key={figure.label} className="figure">
              <span className="figure-value">{figure.value}</span> <span className="figure-label">{figure.label}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function CaseStudies({ caseStudies }: { caseStudies: CaseStudy[] }) {
  const { t, locale } = useI18n();
  return (
    <section className="section" aria-labelledby="cases-title">
      <div className="container">
        <h2 id="cases-title">{t('home.results.cases')}</h2>
        {caseStudies.some((study) => study.sample) ? <SampleNote /> : null}
        <ul className="case-studies">
          {caseStudies.map((study) => (
            <li key={study.slug}>
              <CaseStudyCard study={study} />
            </li>
          ))}
        </ul>
        <p className="section-more">
          <Link to={localePath('case-studies', locale)}>{t('caseStudies.all')}</Link>
        </p>
      </div>
    </section>
  );
}

export default function HomePage({ data }: PageProps<LoaderData<typeof loader>>) {
  const { t, locale } = useI18n();
  const { content, caseStudies } = data;
  // Sections whose data comes from the content source: streamed when it is slow.
  const later = (title: string) => <StreamedSection title={title} />;
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-grid">
          <div className="hero-text">
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
          <HeroArt />
        </div>
      </section>

      <Streamed value={content} fallback={<div className="logos-placeholder" />}>
        {(home) => (home && home.logos.length > 0 ? <Logos logos={home.logos} sample={home.sample} /> : null)}
      </Streamed>

      <section className="section" aria-labelledby="services-title">
        <div className="container">
          <h2 id="services-title">{t('home.services.title')}</h2>
          <p className="section-lead">{t('home.services.lead')}</p>
          <ul className="cards practices">
            {PRACTICES.map((key) => (
              <PracticeCard
                key={key}
                practice={key}
                title={t(`home.services.items.${key}.title`)}
                text={t(`home.services.items.${key}.text`)}
                more={t('home.services.more')}
                locale={locale}
              />
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="how-title">
        <div className="container">
          <h2 id="how-title">{t('home.how.title')}</h2>
          <p className="section-lead">{t('home.how.lead')}</p>
          <div className="flows">
            <div className="flow">
              <h3>{t('home.how.clients.title')}</h3>
              <ol className="steps">
                {CLIENT_STEPS.map((state) => (
                  <li key={state} className="step">
                    <h4>{t(`home.how.clients.steps.${state}.title`)}</h4>
                    <p>{t(`home.how.clients.steps.${state}.text`)}</p>
                    <p className="step-state">
                      <span className="visually-hidden">{`${t('home.how.stateLabel')} `}</span>
                      {t(`projects.states.${state}`)}
                    </p>
                  </li>
                ))}
              </ol>
            </div>
            <div className="flow">
              <h3>{t('home.how.experts.title')}</h3>
              <ol className="steps">
                {EXPERT_STEPS.map((step) => (
                  <li key={step} className="step">
                    <h4>{t(`home.how.experts.steps.${step}.title`)}</h4>
                    <p>{t(`home.how.experts.steps.${step}.text`)}</p>
                  </li>
                ))}
              </ol>
            </div>
          </div>
        </div>
      </section>

      <Streamed value={content} fallback={later(t('home.results.figures'))}>
        {(home) => (home && home.figures.length > 0 ? <Figures content={home} /> : null)}
      </Streamed>
      <Streamed value={caseStudies} fallback={later(t('home.results.cases'))}>
        {(studies) => (studies && studies.length > 0 ? <CaseStudies caseStudies={studies} /> : null)}
      </Streamed>
    </>
  );
}
