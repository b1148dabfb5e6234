import { useRef, useState } from "react";
import { useNotifications } from "./notifications.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { appendEdges } from "../../lib/appendEdges.ts";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { NotificationEntry } from "./NotificationBell.tsx";
import { notificationsVariables } from "./notificationEvents.ts";
import { useNotificationActions } from "./useNotificationActions.ts";
import { StaffAlertSettings } from "./StaffAlertSettings.tsx";

/** /me/notifications: every notification, newest first, with "Show more" (the bell keeps it live). */
export function NotificationsPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("notifications.title"));
  const { data, loading, error, fetchMore } = useNotifications({
    variables: notificationsVariables,
    fetchPolicy: "cache-and-network",
  });
  const { markRead, markAllRead, markingAll } = useNotificationActions();
  const [loadingMore, setLoadingMore] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const items = data?.notifications.edges.map((e) => e.node) ?? [];
  const unread = data?.notifications.unreadCount ?? 0;

  async function showMore() {
    if (!data) return;
    const before = items.length;
    setLoadingMore(true);
    setActionError(null);
    try {
      await fetchMore({
        variables: { after: data.notifications.pageInfo.endCursor },
        updateQuery: appendEdges("notifications"),
      });
      requestAnimationFrame(() =>
        list.current?.querySelectorAll<HTMLElement>(".notification")[before]?.focus(),
      );
    } catch (caught) {
      setActionError(handleError(caught, i18n).message);
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <div className="notifications-page">
      <div className="notifications-page__head">
        <h1>{t("notifications.title")}</h1>
        {unread > 0 && (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={markingAll}
            onClick={() => {
              setActionError(null);
              markAllRead().catch((caught: unknown) => setActionError(handleError(caught, i18n).message));
            }}
          >
            {t("notifications.markAllRead")}
          </button>
        )}
      </div>
      <p className="muted" role="status">
        {data ? (unread > 0 ? t("notifications.unread", { count: unread }) : t("notifications.allRead")) : ""}
      </p>
      {error && <Alert kind="error">{handleError(error, i18n).message}</Alert>}
      {actionError && <Alert kind="error">{actionError}</Alert>}
      {loading && !data ? (
        <Loading />
      ) : items.length === 0 ? (
        <div className="empty">
          <p>{t("notifications.emptyPage")}</p>
        </div>
      ) : (
        <ul className="notification-list" ref={list}>
          {items.map((notification) => (
            <li key={notification.id}>
              <NotificationEntry notification={notification} onOpen={() => markRead(notification)} />
            </li>
          ))}
        </ul>
      )}
      {data?.notifications.pageInfo.hasNextPage && (
        <p className="directory__more">
          <button
            type="button"
            className="button button--ghost"
            disabled={loadingMore}
            onClick={() => void showMore()}
          >
            {loadingMore ? t("app.loading") : t("notifications.showMore")}
          </button>
        </p>
      )}
      <StaffAlertSettings />
    </div>
  );
}
