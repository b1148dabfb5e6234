import type {
  SermonRecord,
  SermonSeriesRecord,
  SettingsRecord,
  SpeakerRecord,
} from "../../pocketbase/records.ts";
import { markdownPool } from "../../markdown/pool.ts";
import { AUDIO_UPLOAD_PATH } from "../../http/audio-uploads.ts";
import type { FeatureHttp } from "../../http/route-table.ts";
import {
  churchT,
  guestFind,
  notFound,
  titled,
  type Feed,
  type MetaResolver,
  type PageRoute,
  withFeeds,
} from "../../http/page-meta.ts";
import { PODCAST_ARTWORK_PATH, podcastArtwork, seriesFeedSlug, sermonsFeed } from "./podcast-feed.ts";

// Sermons' entry in the gateway's route table: resumable audio uploads (tus), the podcast feeds and
// their artwork, and the meta of the sermon, series and speaker pages.

/** A published sermon: Open Graph audio and a schema.org PodcastEpisode (with its series as the PodcastSeries). */
const sermonPage: MetaResolver = async ({ settings, guest, origin }, { slug = "" }) => {
  const sermon = await guestFind<SermonRecord>(
    guest,
    "sermons",
    guest.filter('slug = {:slug} && status = "published"', { slug }),
    "series,speakers",
  );
  if (!sermon) return notFound(settings);
  const description =
    sermon.summary ||
    (await markdownPool.plainText(sermon.notes ?? "", 200)) ||
    settings.tagline ||
    sermon.title;
  const url = `${origin}/sermons/${sermon.slug}`;
  const series = sermon.expand?.series;
  const image = series?.artwork
    ? `${origin}/files/sermon_series/${series.id}/${encodeURIComponent(series.artwork)}?thumb=1400x1400`
    : undefined;
  const audio = sermon.audio
    ? {
        url: `${origin}/files/sermons/${sermon.id}/${encodeURIComponent(sermon.audio)}`,
        type: sermon.audioType || "audio/mpeg",
      }
    : undefined;
  const duration = sermon.durationSeconds ? `PT${Math.round(sermon.durationSeconds)}S` : undefined;
  return {
    title: `${sermon.title} · ${settings.churchName}`,
    description,
    found: true,
    type: "article",
    ...(image ? { image } : {}),
    ...(audio ? { audio } : {}),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "PodcastEpisode",
      name: sermon.title,
      description,
      url,
      ...(sermon.preachedOn ? { datePublished: sermon.preachedOn.slice(0, 10) } : {}),
      ...(duration ? { timeRequired: duration } : {}),
      ...(image ? { image } : {}),
      ...(audio
        ? {
            associatedMedia: {
              "@type": "MediaObject",
              contentUrl: audio.url,
              encodingFormat: audio.type,
              ...(duration ? { duration } : {}),
            },
          }
        : {}),
      ...(sermon.expand?.speakers?.length
        ? { author: sermon.expand.speakers.map((s) => ({ "@type": "Person", name: s.name })) }
        : {}),
      partOfSeries: {
        "@type": "PodcastSeries",
        name: series
          ? `${settings.churchName}: ${series.title}`
          : churchT(settings)("feed.sermons.title", { church: settings.churchName }),
        url: series ? `${origin}/series/${series.slug}` : `${origin}/sermons`,
        webFeed: series ? `${origin}/feeds/series/${series.slug}.xml` : `${origin}/feeds/sermons.xml`,
      },
      publisher: { "@type": "Organization", name: settings.churchName },
    },
  };
};

const seriesPage: MetaResolver = async ({ settings, guest, origin }, { slug = "" }) => {
  const series = await guestFind<SermonSeriesRecord>(
    guest,
    "sermon_series",
    guest.filter("slug = {:slug}", { slug }),
  );
  if (!series) return notFound(settings);
  const image = series.artwork
    ? `${origin}/files/sermon_series/${series.id}/${encodeURIComponent(series.artwork)}?thumb=1400x1400`
    : undefined;
  return {
    title: `${series.title} · ${settings.churchName}`,
    description: series.description || settings.tagline || series.title,
    found: true,
    ...(image ? { image } : {}),
    feeds: [
      {
        kind: "rss",
        title: `${settings.churchName}: ${series.title}`,
        href: `${origin}/feeds/series/${series.slug}.xml`,
      },
      podcastLink(settings, origin),
    ],
  };
};

const speakerPage: MetaResolver = async ({ settings, guest }, { slug = "" }) => {
  const speaker = await guestFind<SpeakerRecord>(guest, "speakers", guest.filter("slug = {:slug}", { slug }));
  if (!speaker) return notFound(settings);
  return {
    title: `${speaker.name} · ${settings.churchName}`,
    description: speaker.bio
      ? await markdownPool.plainText(speaker.bio, 200)
      : settings.tagline || speaker.name,
    found: true,
  };
};

/** The church's podcast: advertised on the sermon pages. */
const podcastLink = (settings: SettingsRecord, origin: string): Feed => ({
  kind: "rss",
  title: churchT(settings)("feed.sermons.title", { church: settings.churchName }),
  href: `${origin}/feeds/sermons.xml`,
});

const SERMON_PAGES: PageRoute[] = [
  [
    /^\/sermons$/,
    withFeeds(titled("page.sermons"), ({ settings, origin }) => [podcastLink(settings, origin)]),
  ],
  [/^\/sermons\/(?<slug>[a-z0-9-]{1,120})$/, sermonPage],
  [/^\/series\/(?<slug>[a-z0-9-]{1,120})$/, seriesPage],
  [/^\/speakers\/(?<slug>[a-z0-9-]{1,120})$/, speakerPage],
];

export const sermonsHttp: FeatureHttp = {
  routes: ({ services, guest, headers, publicOrigin, serveDocument }) => [
    {
      match: (url) => url.pathname === AUDIO_UPLOAD_PATH || url.pathname.startsWith(`${AUDIO_UPLOAD_PATH}/`),
      handle: (req, res) => services.audioUploads.handle(req, res),
    },
    {
      match: (url) => url.pathname === "/feeds/sermons.xml" || !!seriesFeedSlug(url.pathname),
      async handle(req, res, url) {
        const slug = seriesFeedSlug(url.pathname);
        const feed = await services.publicSettings
          .get()
          .then((settings) =>
            sermonsFeed(guest(), () => services.system.get(), settings, publicOrigin, slug),
          );
        if (feed === null) {
          res.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" }).end("Not found");
          return;
        }
        await serveDocument(
          req,
          res,
          url.pathname,
          "application/rss+xml; charset=utf-8",
          Promise.resolve(feed),
        );
      },
    },
    {
      match: (url) => url.pathname === PODCAST_ARTWORK_PATH,
      async handle(req, res) {
        const settings = await services.publicSettings.get();
        const png = await podcastArtwork(guest(), settings);
        res.writeHead(200, {
          ...headers,
          "content-type": "image/png",
          "content-length": png.length,
          "cache-control": "public, max-age=3600",
        });
        res.end(req.method === "HEAD" ? undefined : png);
      },
    },
  ],
  pages: SERMON_PAGES,
};
