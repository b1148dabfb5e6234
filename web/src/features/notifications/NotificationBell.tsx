import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";
import { Link, useLocation } from "react-router";
import {
  NotificationsDocument,
  useMyNotifications,
  useNotifications,
  type NotificationItemFragment,
} from "./notifications.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { applyNotificationEvent, notificationsVariables } from "./notificationEvents.ts";
import { relativeTime } from "../../i18n/relativeTime.ts";
import { useNotificationActions } from "./useNotificationActions.ts";

const SHOWN_IN_MENU = 6;

/**
 * The header's bell for signed-in users: the unread count, live (myNotifications), in the button's
 * name ("Notifications, 3 unread") and on a badge; a disclosure panel with the latest ones. Escape or
 * leaving the panel closes it; Escape puts focus back on the bell.
 */
export function NotificationBell() {
  const { t } = useI18n();
  const panelId = useId();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  const { data, refetch } = useNotifications({
    variables: notificationsVariables,
    fetchPolicy: "cache-and-network",
  });
  const { markRead, markAllRead, markingAll } = useNotificationActions();

  useMyNotifications({
    onData: ({ client, data: event }) => {
      const change = event.data?.myNotifications;
      if (!change) return;
      if (change.kind === "RESYNC") {
        void refetch();
        return;
      }
      client.cache.updateQuery({ query: NotificationsDocument, variables: notificationsVariables }, (list) =>
        list ? applyNotificationEvent(list, change) : undefined,
      );
      if (change.kind === "ADDED" && change.notification)
        setAnnouncement(t("notifications.new", { title: change.notification.title }));
    },
  });

  // A link in the panel was followed: the panel has done its job.
  useEffect(() => setOpen(false), [location.pathname]);

  // A click anywhere else closes the panel (focus leaving it is handled by onBlur).
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const unread = data?.notifications.unreadCount ?? 0;
  const items = data?.notifications.edges.slice(0, SHOWN_IN_MENU).map((e) => e.node) ?? [];
  const label =
    unread > 0
      ? `${t("notifications.title")}, ${t("notifications.unread", { count: unread })}`
      : t("notifications.title");

  async function onMarkAllRead() {
    try {
      await markAllRead();
    } catch {
      return;
    }
    // The button leaves with the last unread one: without this, focus would fall to the page (and
    // Escape would no longer reach the panel). Keep it in the panel and say what happened.
    title.current?.focus();
    setAnnouncement(t("notifications.allRead"));
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Escape" && open) {
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    }
  }

  function onBlur(event: FocusEvent) {
    if (open && event.relatedTarget && !wrapper.current?.contains(event.relatedTarget as Node))
      setOpen(false);
  }

  return (
    <div className="bell" ref={wrapper} onKeyDown={onKeyDown} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className="bell__button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={label}
        onClick={() => setOpen((o) => !o)}
      >
        <BellIcon />
        {unread > 0 && (
          <span className="bell__badge" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <div id={panelId} className="bell__panel" role="region" aria-labelledby={titleId} hidden={!open}>
        <div className="bell__head">
          <h2 id={titleId} className="bell__title" tabIndex={-1} ref={title}>
            {t("notifications.title")}
          </h2>
          {unread > 0 && (
            <button
              type="button"
              className="link-button small"
              disabled={markingAll}
              onClick={() => void onMarkAllRead()}
            >
              {t("notifications.markAllRead")}
            </button>
          )}
        </div>
        {items.length === 0 ? (
          <p className="bell__empty muted">{data ? t("notifications.empty") : t("app.loading")}</p>
        ) : (
          <ul className="bell__list">
            {items.map((notification) => (
              <li key={notification.id}>
                <NotificationEntry
                  notification={notification}
                  onOpen={() => markRead(notification)}
                  compact
                />
              </li>
            ))}
          </ul>
        )}
        <Link to="/me/notifications" className="bell__all">
          {t("notifications.seeAll")}
        </Link>
      </div>
    </div>
  );
}

/**
 * One notification: its title (bold while unread), text and time. With a link it opens that page and
 * counts as read; without one, activating it marks it read.
 */
export function NotificationEntry({
  notification,
  onOpen,
  compact = false,
}: {
  notification: NotificationItemFragment;
  onOpen(): void;
  compact?: boolean;
}) {
  const { t, locale } = useI18n();
  const unread = !notification.readAt;
  const content = (
    <>
      <span className={`notification__dot${unread ? "" : " is-read"}`} aria-hidden="true" />
      <span className="notification__text">
        <span className="notification__title">
          {unread && <span className="visually-hidden">{t("notifications.unreadLabel")} </span>}
          {notification.title}
        </span>
        {notification.body && (
          <span className={`notification__body${compact ? " is-compact" : ""}`}>{notification.body}</span>
        )}
        <time className="notification__time" dateTime={notification.created}>
          {relativeTime(notification.created, locale)}
        </time>
      </span>
    </>
  );
  const className = `notification${unread ? " notification--unread" : ""}`;
  if (notification.link?.startsWith("/")) {
    return (
      <Link to={notification.link} className={className} onClick={onOpen}>
        {content}
      </Link>
    );
  }
  return (
    <button type="button" className={className} onClick={onOpen} aria-disabled={!unread || undefined}>
      {content}
    </button>
  );
}

function BellIcon() {
  return (
    <svg
      className="bell__icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      focusable="false"
    >
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.73 21a2 2 0 0 1-3.46 0"
      />
    </svg>
  );
}
