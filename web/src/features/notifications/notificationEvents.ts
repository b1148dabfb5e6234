import type { MyNotificationsSubscription, NotificationsQuery } from "./notifications.generated.ts";

/** The bell and /me/notifications share one cached list: the same variables everywhere. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const notificationsVariables = { first: NOTIFICATIONS_PAGE_SIZE };

type NotificationEvent = MyNotificationsSubscription["myNotifications"];

/**
 * One live event applied to the cached list: a new notification goes on top (once), a removed one
 * goes away, and the unread count is the server's. Changed fields of a shown notification (read,
 * a batched count going up) are updated by Apollo's cache by id. RESYNC is the caller's (refetch).
 */
export function applyNotificationEvent(
  list: NotificationsQuery,
  event: NotificationEvent,
): NotificationsQuery {
  const connection = list.notifications;
  let edges = connection.edges;
  const notification = event.notification;
  if (notification) {
    const shown = edges.some((edge) => edge.node.id === notification.id);
    if (event.kind === "ADDED" && !shown)
      edges = [{ __typename: "NotificationEdge", node: notification }, ...edges];
    if (event.kind === "REMOVED" && shown) edges = edges.filter((edge) => edge.node.id !== notification.id);
  }
  return { ...list, notifications: { ...connection, edges, unreadCount: event.unreadCount } };
}
