import { Temporal } from "temporal-polyfill";
import type { EventExceptionRecord, EventRecord } from "../../pocketbase/records.ts";
import { markdownPool } from "../../markdown/pool.ts";
import type { FeatureHttp } from "../../http/route-table.ts";
import {
  churchT,
  guestFind,
  iso,
  notFound,
  titled,
  withFeeds,
  type MetaResolver,
  type PageRoute,
} from "../../http/page-meta.ts";
import { occurrencesOf } from "./occurrences.ts";
import { eventFeed, eventFeedRoute } from "./calendar-feeds.ts";

// Events' entry in the gateway's route table: the iCalendar feeds (all public events, per category,
// one occurrence, a person's own calendar) and the meta of the events pages.

/** A public event: Open Graph and a schema.org Event for its next (or last) occurrence. */
const eventPage: MetaResolver = async ({ settings, guest, origin }, { slug = "" }) => {
  const event = await guestFind<EventRecord>(
    guest,
    "events",
    guest.filter("slug = {:slug}", { slug }), // the read rule leaves a guest published public events only
  );
  if (!event) return notFound(settings);
  const description =
    event.summary ||
    (await markdownPool.plainText(event.description ?? "", 200)) ||
    settings.tagline ||
    event.title;
  let when: { start: string; end: string; cancelled: boolean } = {
    start: iso(event.startsAt)!,
    end: iso(event.endsAt)!,
    cancelled: event.status === "cancelled",
  };
  try {
    const now = Temporal.Now.instant();
    const exceptions = await guest
      .collection("event_exceptions")
      .getFullList<EventExceptionRecord>({ filter: guest.filter("event = {:e}", { e: event.id }) });
    const next = occurrencesOf(event, exceptions, now, now.add({ hours: 24 * 400 }))[0];
    if (next)
      when = {
        start: next.start.toInstant().toString(),
        end: next.end.toInstant().toString(),
        cancelled: next.status === "CANCELLED",
      };
  } catch {
    // A rule that does not parse: describe the first occurrence.
  }
  const image = event.image
    ? `${origin}/files/events/${event.id}/${encodeURIComponent(event.image)}?thumb=1200x630`
    : undefined;
  return {
    title: `${event.title} · ${settings.churchName}`,
    description,
    found: true,
    ...(image ? { image } : {}),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Event",
      name: event.title,
      description,
      url: `${origin}/events/${event.slug}`,
      startDate: when.start,
      endDate: when.end,
      eventStatus: when.cancelled ? "https://schema.org/EventCancelled" : "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      ...(event.locationName || event.locationAddress
        ? {
            location: {
              "@type": "Place",
              name: event.locationName || settings.churchName,
              address: event.locationAddress || settings.address?.replace(/\n/g, ", ") || "",
            },
          }
        : {}),
      ...(image ? { image } : {}),
      organizer: { "@type": "Organization", name: settings.churchName, url: origin },
    },
  };
};

/** The calendar of public events, advertised on the events pages for calendar apps. */
const withCalendarFeed = (resolve: MetaResolver) =>
  withFeeds(resolve, ({ settings, origin }) => [
    {
      kind: "calendar",
      title: churchT(settings)("feed.events.title", { church: settings.churchName }),
      href: `${origin}/feeds/events.ics`,
    },
  ]);

const EVENT_PAGES: PageRoute[] = [
  [/^\/events$/, withCalendarFeed(titled("page.events"))],
  [/^\/events\/registration\/[A-Za-z0-9_-]{1,64}$/, titled("page.eventRegistration", { noindex: true })],
  [/^\/events\/(?<slug>[a-z0-9-]{1,120})$/, withCalendarFeed(eventPage)],
];

export const eventsHttp: FeatureHttp = {
  routes: ({ services, guest, headers, publicOrigin, serveDocument }) => [
    {
      match: (url) => url.pathname.startsWith("/feeds/") && !!eventFeedRoute(url.pathname),
      async handle(req, res, url) {
        const feedRoute = eventFeedRoute(url.pathname)!;
        const settings = await services.publicSettings.get();
        const feed = await eventFeed(feedRoute, guest(), services.system, settings, publicOrigin);
        if (feed === null) {
          res.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" }).end("Not found");
          return;
        }
        if (feedRoute.kind === "personal") {
          // A personal calendar is private: never cached by shared caches.
          res
            .writeHead(200, {
              ...headers,
              "content-type": "text/calendar; charset=utf-8",
              "cache-control": "private, no-store",
            })
            .end(req.method === "HEAD" ? undefined : feed);
          return;
        }
        if (feedRoute.kind === "occurrence") {
          res
            .writeHead(200, {
              ...headers,
              "content-type": "text/calendar; charset=utf-8",
              "content-disposition": `attachment; filename="${feedRoute.slug}-${feedRoute.date}.ics"`,
              "cache-control": "public, max-age=300",
            })
            .end(req.method === "HEAD" ? undefined : feed);
          return;
        }
        await serveDocument(req, res, url.pathname, "text/calendar; charset=utf-8", Promise.resolve(feed));
      },
    },
  ],
  pages: EVENT_PAGES,
};
