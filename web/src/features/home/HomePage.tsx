import { Link } from "react-router";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useHomeNews } from "../content/news.generated.ts";
import { PostCard } from "../content/PostCard.tsx";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { ServiceTimes } from "../../components/ServiceTimes.tsx";
import { PostalAddress, telLink } from "../../components/PostalAddress.tsx";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { lazy, Suspense } from "react";

// The latest sermon and its player load as their own chunk after the page (first load stays small).
const LatestSermon = lazy(async () => ({ default: (await import("../sermons/pages.tsx")).LatestSermon }));
const UpcomingEvents = lazy(async () => ({
  default: (await import("../events/UpcomingEvents.tsx")).UpcomingEvents,
}));

/** The public front door: who the church is, when to come, where to find it. */
export function HomePage() {
  const { t } = useI18n();
  const { data } = useAppShell();
  const { data: news } = useHomeNews();
  usePageTitle(null);
  if (!data) return null;
  const { settings, viewer } = data;
  return (
    <>
      <section className="hero">
        <div className="container">
          <h1 className="hero__title">{t("home.welcome", { church: settings.churchName })}</h1>
          {settings.tagline && <p className="hero__tagline">{settings.tagline}</p>}
          <p className="hero__intro">{t("home.intro")}</p>
          {!viewer?.isMember && (
            <p className="actions">
              <Link to="/visit" className="button button--light">
                {t("home.planVisit")}
              </Link>
              {!viewer && (
                <Link to="/login" className="button button--outline-light">
                  {t("home.memberCta")}
                </Link>
              )}
            </p>
          )}
        </div>
      </section>
      <div className="container cards">
        <section className="card" aria-labelledby="home-services">
          <h2 id="home-services">{t("home.serviceTimes")}</h2>
          <ServiceTimes settings={settings} emptyText={t("home.noServiceTimes")} />
        </section>
        {settings.address && (
          <section className="card" aria-labelledby="home-find">
            <h2 id="home-find">{t("home.findUs")}</h2>
            <PostalAddress address={settings.address} />
          </section>
        )}
        {(settings.phone || settings.email) && (
          <section className="card" aria-labelledby="home-contact">
            <h2 id="home-contact">{t("home.contact")}</h2>
            {settings.phone && (
              <p>
                <a href={telLink(settings.phone)}>{settings.phone}</a>
              </p>
            )}
            {settings.email && (
              <p>
                <a href={`mailto:${settings.email}`}>{settings.email}</a>
              </p>
            )}
          </section>
        )}
      </div>
      <Suspense fallback={null}>
        <div className="container">
          <UpcomingEvents />
        </div>
      </Suspense>
      <Suspense fallback={null}>
        <LatestSermon />
      </Suspense>
      {!!news?.homeNews.length && (
        <section className="container home-news" aria-labelledby="home-news">
          <div className="section-heading">
            <h2 id="home-news">{t("news.latest")}</h2>
            <Link to="/news">{t("news.all")} →</Link>
          </div>
          <div className="post-grid">
            {news.homeNews.map((post) => (
              <PostCard key={post.id} post={post} headingLevel={3} />
            ))}
          </div>
        </section>
      )}
    </>
  );
}
