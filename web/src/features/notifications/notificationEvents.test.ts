import { describe, expect, it } from "vitest";
import type { NotificationItemFragment, NotificationsQuery } from "./notifications.generated.ts";
import { applyNotificationEvent } from "./notificationEvents.ts";

function notification(
  id: string,
  overrides: Partial<NotificationItemFragment> = {},
): NotificationItemFragment {
  return {
    __typename: "Notification",
    id,
    kind: "PRAYER_APPROVED",
    title: "Your prayer request is on the wall",
    body: "",
    link: "/prayer/p1",
    count: 1,
    readAt: null,
    created: "2026-03-10T12:00:00Z",
    ...overrides,
  };
}

function list(unreadCount: number, ...nodes: NotificationItemFragment[]): NotificationsQuery {
  return {
    notifications: {
      __typename: "NotificationConnection",
      edges: nodes.map((node) => ({ __typename: "NotificationEdge", node })),
      pageInfo: { __typename: "PageInfo", hasNextPage: false, endCursor: null },
      unreadCount,
    },
  };
}

const ids = (q: NotificationsQuery) => q.notifications.edges.map((e) => e.node.id);

describe("applyNotificationEvent", () => {
  it("puts a new notification on top once and takes the server's unread count", () => {
    const event = {
      __typename: "NotificationEvent" as const,
      kind: "ADDED" as const,
      unreadCount: 2,
      notification: notification("b"),
    };
    const once = applyNotificationEvent(list(1, notification("a")), event);
    expect(ids(once)).toEqual(["b", "a"]);
    expect(once.notifications.unreadCount).toBe(2);
    expect(ids(applyNotificationEvent(once, event))).toEqual(["b", "a"]);
  });

  it("updates only the count for changes and marks", () => {
    const result = applyNotificationEvent(list(3, notification("a")), {
      __typename: "NotificationEvent",
      kind: "UPDATED",
      unreadCount: 0,
      notification: null,
    });
    expect(ids(result)).toEqual(["a"]);
    expect(result.notifications.unreadCount).toBe(0);
  });

  it("removes a removed notification", () => {
    const result = applyNotificationEvent(list(1, notification("a"), notification("b")), {
      __typename: "NotificationEvent",
      kind: "REMOVED",
      unreadCount: 0,
      notification: notification("a"),
    });
    expect(ids(result)).toEqual(["b"]);
  });
});
