/** English: the bell, the notifications page and staff alert settings (features/notifications). */
export const notifications = {
  "staffAlerts.title": "Staff alerts",
  "staffAlerts.intro":
    "How you hear about new activity you handle. “At once” sends a notification here and an email; the daily digest is one email each morning.",
  "staffAlerts.saved": "Saved.",
  "staffAlerts.topic.VISIT_REQUESTS": "New visit requests",
  "staffAlerts.topic.SIGNUPS": "Sign-ups waiting for approval",
  "staffAlerts.topic.PRAYER_MODERATION": "Prayer requests waiting for moderation",
  "staffAlerts.delivery.IMMEDIATE": "At once (notification and email)",
  "staffAlerts.delivery.DAILY_DIGEST": "Daily digest email",
  "staffAlerts.delivery.OFF": "Off",
  "notifications.title": "Notifications",
  "notifications.unread": "{count, plural, one {# unread} other {# unread}}",
  "notifications.unreadLabel": "Unread:",
  "notifications.new": "New notification: {title}",
  "notifications.markAllRead": "Mark all read",
  "notifications.seeAll": "See all notifications",
  "notifications.empty": "You're all caught up.",
  "notifications.emptyPage":
    "No notifications yet. We'll let you know when your requests are approved or someone prays for them.",
  "notifications.allRead": "All read.",
  "notifications.showMore": "Show more",
} as const;
