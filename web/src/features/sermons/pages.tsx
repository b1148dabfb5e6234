import { useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Loading } from "../../components/Loading.tsx";
import { Alert } from "../../components/Alert.tsx";
import { RichText } from "../../components/RichText.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { appendEdges } from "../../lib/appendEdges.ts";
import { useDebounced } from "../../lib/useDebounced.ts";
import { NotFoundPage } from "../errors/NotFoundPage.tsx";
import {
  useLatestSermon,
  useSermonFilters,
  useSermonPage,
  useSermonsPage,
  useSeriesPage,
  useSpeakerPage,
  type SermonCardFragment,
} from "./sermons.generated.ts";
import { SermonCard } from "./SermonCard.tsx";
import { AudioPlayer } from "./AudioPlayer.tsx";
import { VideoEmbed } from "./VideoEmbed.tsx";
import { parseStartTime } from "./clock.ts";
import "./sermons.css";

function SermonList({ sermons, empty }: { sermons: SermonCardFragment[]; empty: string }) {
  if (!sermons.length) return <p className="empty">{empty}</p>;
  return (
    <div className="sermon-list">
      {sermons.map((sermon) => (
        <SermonCard key={sermon.id} sermon={sermon} />
      ))}
    </div>
  );
}

/** /sermons: search, filters (series, speaker, book, year) kept in the address, and "more". */
/** One of the list's filters: a labelled select whose first choice ("Any") clears it. */
function FilterSelect(props: {
  id: string;
  label: string;
  any: string;
  value: string | number | null | undefined;
  onChange: (value: string) => void;
  options: Array<{ value: string; label: string }> | undefined;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} value={props.value ?? ""} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.any}</option>
        {props.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function SermonsPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  usePageTitle(t("sermons.title"));
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get("q") ?? "");
  const query = useDebounced(search.trim(), 300);
  const filter = (name: string) => params.get(name) || null;
  const year = Number(params.get("year")) || null;
  const { data: filters } = useSermonFilters({ variables: { locale } });
  const { data, loading, error, fetchMore } = useSermonsPage({
    variables: {
      locale,
      search: query || null,
      seriesId: filter("series"),
      speakerId: filter("speaker"),
      book: filter("book"),
      year,
    },
  });
  const sermons = data?.sermons.edges.map((e) => e.node) ?? [];
  const filtering = !!(query || filter("series") || filter("speaker") || filter("book") || year);
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  return (
    <div className="container page">
      <div className="section-heading">
        <h1>{t("sermons.title")}</h1>
        <a href="/feeds/sermons.xml" className="small">
          {t("sermons.podcast")}
        </a>
      </div>
      <form className="sermon-filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="sermon-search">{t("sermons.search")}</label>
          <input
            id="sermon-search"
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setFilter("q", e.target.value.trim());
            }}
            placeholder={t("sermons.searchHint")}
          />
        </div>
        <FilterSelect
          id="sermon-series"
          label={t("sermons.series")}
          any={t("sermons.any")}
          value={filter("series")}
          onChange={(v) => setFilter("series", v)}
          options={filters?.sermonSeriesList.map((s) => ({ value: s.id, label: s.title }))}
        />
        <FilterSelect
          id="sermon-speaker"
          label={t("sermons.speaker")}
          any={t("sermons.any")}
          value={filter("speaker")}
          onChange={(v) => setFilter("speaker", v)}
          options={filters?.speakers.map((s) => ({ value: s.id, label: s.name }))}
        />
        <FilterSelect
          id="sermon-book"
          label={t("sermons.book")}
          any={t("sermons.any")}
          value={filter("book")}
          onChange={(v) => setFilter("book", v)}
          options={filters?.bibleBooks.map((b) => ({ value: b.osis, label: b.name }))}
        />
        <FilterSelect
          id="sermon-year"
          label={t("sermons.year")}
          any={t("sermons.any")}
          value={year}
          onChange={(v) => setFilter("year", v)}
          options={filters?.sermonYears.map((y) => ({ value: String(y), label: String(y) }))}
        />
      </form>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      <div aria-live="polite" aria-busy={loading}>
        {loading && !data ? (
          <Loading />
        ) : !sermons.length && filtering ? (
          <p className="empty">
            {t("sermons.noMatch")}{" "}
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setSearch("");
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              {t("sermons.clearFilters")}
            </button>
          </p>
        ) : (
          <SermonList sermons={sermons} empty={t("sermons.empty")} />
        )}
      </div>
      {data?.sermons.pageInfo.hasNextPage && (
        <p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() =>
              void fetchMore({
                variables: { after: data.sermons.pageInfo.endCursor },
                updateQuery: appendEdges("sermons"),
              })
            }
          >
            {t("sermons.more")}
          </button>
        </p>
      )}
    </div>
  );
}

/** /sermons/:slug: player, video, scripture, notes, attachments and the series around it. */
export function SermonPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { slug = "" } = useParams();
  const [params] = useSearchParams();
  const { data, loading, error } = useSermonPage({ variables: { slug, locale } });
  const sermon = data?.sermon;
  usePageTitle(sermon?.title ?? null);
  if (loading && !data) return <Loading />;
  if (error)
    return (
      <div className="container page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  if (!sermon) return <NotFoundPage />;
  const date = sermon.preachedOn
    ? new Date(sermon.preachedOn).toLocaleDateString(locale, { timeZone: "UTC", dateStyle: "long" })
    : null;
  return (
    <article className="container article page sermon">
      <p className="small">
        <Link to="/sermons">← {t("sermons.title")}</Link>
      </p>
      <h1>{sermon.title}</h1>
      <p className="muted">
        {date && <time dateTime={sermon.preachedOn!.slice(0, 10)}>{date}</time>}
        {sermon.speakers.map((s) => (
          <span key={s.id}>
            {" · "}
            <Link to={s.path}>{s.name}</Link>
          </span>
        ))}
        {sermon.series && (
          <>
            {" · "}
            <Link to={sermon.series.path}>{sermon.series.title}</Link>
          </>
        )}
        {sermon.status !== "PUBLISHED" && <span className="badge badge--danger">{t("sermons.draft")}</span>}
      </p>
      {sermon.scriptureText && (
        <p className="sermon__scripture">
          <strong>{t("sermons.scripture")}:</strong> {sermon.scriptureText}
        </p>
      )}
      {sermon.audio && (
        <AudioPlayer
          sermonId={sermon.id}
          title={sermon.title}
          src={sermon.audio.url}
          durationSeconds={sermon.audio.durationSeconds ?? null}
          startAt={parseStartTime(params.get("t"))}
          shareUrl={new URL(sermon.path, window.location.origin).toString()}
        />
      )}
      {sermon.video && (
        <VideoEmbed embedUrl={sermon.video.embedUrl} url={sermon.video.url} title={sermon.title} />
      )}
      {sermon.summary && <p className="lead">{sermon.summary}</p>}
      {sermon.notesHtml && (
        <section aria-labelledby="sermon-notes">
          <h2 id="sermon-notes">{t("sermons.notes")}</h2>
          <RichText html={sermon.notesHtml} />
        </section>
      )}
      {sermon.attachments.length > 0 && (
        <section aria-labelledby="sermon-downloads">
          <h2 id="sermon-downloads">{t("sermons.downloads")}</h2>
          <ul>
            {sermon.attachments.map((a) => (
              <li key={a.url}>
                <a href={a.url} download>
                  {a.filename} (PDF)
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {(sermon.previousInSeries || sermon.nextInSeries) && (
        <nav className="sermon__series-nav" aria-label={t("sermons.seriesNav")}>
          {sermon.previousInSeries ? (
            <Link to={sermon.previousInSeries.path} rel="prev">
              ← {t("sermons.previous")}: {sermon.previousInSeries.title}
            </Link>
          ) : (
            <span />
          )}
          {sermon.nextInSeries && (
            <Link to={sermon.nextInSeries.path} rel="next">
              {t("sermons.next")}: {sermon.nextInSeries.title} →
            </Link>
          )}
        </nav>
      )}
    </article>
  );
}

/** /series/:slug: artwork, description, its sermons and its own podcast feed. */
export function SeriesPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { slug = "" } = useParams();
  const { data, loading, error, fetchMore } = useSeriesPage({ variables: { slug, locale } });
  const series = data?.sermonSeries;
  usePageTitle(series?.title ?? null);
  if (loading && !data) return <Loading />;
  if (error)
    return (
      <div className="container page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  if (!series) return <NotFoundPage />;
  return (
    <div className="container page">
      <div className="series-head">
        {series.artworkUrl && (
          <img src={series.artworkUrl} alt="" width={200} height={200} className="series-head__art" />
        )}
        <div>
          <p className="small">
            <Link to="/sermons">← {t("sermons.title")}</Link>
          </p>
          <h1>{series.title}</h1>
          {series.description && <p>{series.description}</p>}
          <p className="small">
            <a href={series.feedUrl}>{t("sermons.seriesPodcast")}</a>
          </p>
        </div>
      </div>
      <SermonList sermons={series.sermons.edges.map((e) => e.node)} empty={t("sermons.seriesEmpty")} />
      {series.sermons.pageInfo.hasNextPage && (
        <button
          type="button"
          className="button button--ghost"
          onClick={() =>
            void fetchMore({
              variables: { after: series.sermons.pageInfo.endCursor },
              updateQuery: (prev, { fetchMoreResult }) =>
                !fetchMoreResult.sermonSeries || !prev.sermonSeries
                  ? prev
                  : {
                      ...prev,
                      sermonSeries: {
                        ...prev.sermonSeries,
                        sermons: {
                          ...fetchMoreResult.sermonSeries.sermons,
                          edges: [
                            ...prev.sermonSeries.sermons.edges,
                            ...fetchMoreResult.sermonSeries.sermons.edges,
                          ],
                        },
                      },
                    },
            })
          }
        >
          {t("sermons.more")}
        </button>
      )}
    </div>
  );
}

/** /speakers/:slug: photo, bio and their sermons. */
export function SpeakerPage() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const { slug = "" } = useParams();
  const { data, loading, error } = useSpeakerPage({ variables: { slug, locale } });
  const speaker = data?.speaker;
  usePageTitle(speaker?.name ?? null);
  if (loading && !data) return <Loading />;
  if (error)
    return (
      <div className="container page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  if (!speaker) return <NotFoundPage />;
  return (
    <div className="container page">
      <div className="series-head">
        {speaker.photoUrl && (
          <img
            src={speaker.photoUrl}
            alt=""
            width={160}
            height={160}
            className="series-head__art series-head__art--round"
          />
        )}
        <div>
          <p className="small">
            <Link to="/sermons">← {t("sermons.title")}</Link>
          </p>
          <h1>{speaker.name}</h1>
          {speaker.bio && <p>{speaker.bio}</p>}
        </div>
      </div>
      <h2>{t("sermons.bySpeaker", { name: speaker.name })}</h2>
      <SermonList
        sermons={speaker.sermons.edges.map((e) => e.node)}
        empty={t("sermons.speakerEmpty", { name: speaker.name })}
      />
    </div>
  );
}

/** The home page's latest sermon, with its player (this chunk loads after the home page). */
export function LatestSermon() {
  const { t, locale } = useI18n();
  const { data } = useLatestSermon({ variables: { locale } });
  const sermon = data?.latestSermon;
  if (!sermon) return null;
  return (
    <section className="container home-sermon" aria-labelledby="home-sermon">
      <div className="section-heading">
        <h2 id="home-sermon">{t("sermons.latest")}</h2>
        <Link to="/sermons">{t("sermons.all")} →</Link>
      </div>
      <SermonCard sermon={sermon} headingLevel={3} />
      {sermon.audio && (
        <AudioPlayer
          sermonId={sermon.id}
          title={sermon.title}
          src={sermon.audio.url}
          durationSeconds={sermon.audio.durationSeconds ?? null}
          shareUrl={new URL(sermon.path, window.location.origin).toString()}
        />
      )}
    </section>
  );
}
