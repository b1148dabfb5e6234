import {
  NotificationsDocument,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  type NotificationItemFragment,
} from "./notifications.generated.ts";
import { notificationsVariables } from "./notificationEvents.ts";

/**
 * Mark one or all read. The unread count in the cached list moves at once (the live event confirms
 * it); a failure is quiet: the notification simply stays unread.
 */
export function useNotificationActions() {
  const [markOne] = useMarkNotificationRead();
  const [markAll, { loading: markingAll }] = useMarkAllNotificationsRead();

  function markRead(notification: NotificationItemFragment) {
    if (notification.readAt) return;
    void markOne({
      variables: { id: notification.id },
      optimisticResponse: {
        markNotificationRead: {
          __typename: "Notification",
          id: notification.id,
          readAt: new Date().toISOString(),
        },
      },
      update: (cache) =>
        cache.updateQuery({ query: NotificationsDocument, variables: notificationsVariables }, (list) =>
          list
            ? {
                ...list,
                notifications: {
                  ...list.notifications,
                  unreadCount: Math.max(0, list.notifications.unreadCount - 1),
                },
              }
            : undefined,
        ),
    }).catch(() => undefined);
  }

  async function markAllRead() {
    const now = new Date().toISOString();
    await markAll({
      update: (cache) =>
        cache.updateQuery({ query: NotificationsDocument, variables: notificationsVariables }, (list) =>
          list
            ? {
                ...list,
                notifications: {
                  ...list.notifications,
                  unreadCount: 0,
                  edges: list.notifications.edges.map((edge) => ({
                    ...edge,
                    node: { ...edge.node, readAt: edge.node.readAt ?? now },
                  })),
                },
              }
            : undefined,
        ),
    });
  }

  return { markRead, markAllRead, markingAll };
}
