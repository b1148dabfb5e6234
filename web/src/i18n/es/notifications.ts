import type { notifications as english } from "../en/notifications.ts";

/** Spanish: the bell, the notifications page and staff alert settings (features/notifications). */
export const notifications: Record<keyof typeof english, string> = {
  "staffAlerts.title": "Avisos para el personal",
  "staffAlerts.intro":
    "Cómo se entera de la actividad nueva que usted atiende. «Al momento» envía una notificación aquí y un correo; el resumen diario es un correo cada mañana.",
  "staffAlerts.saved": "Guardado.",
  "staffAlerts.topic.VISIT_REQUESTS": "Nuevas solicitudes de visita",
  "staffAlerts.topic.SIGNUPS": "Registros pendientes de aprobación",
  "staffAlerts.topic.PRAYER_MODERATION": "Peticiones de oración pendientes de moderación",
  "staffAlerts.delivery.IMMEDIATE": "Al momento (notificación y correo)",
  "staffAlerts.delivery.DAILY_DIGEST": "Resumen diario por correo",
  "staffAlerts.delivery.OFF": "Desactivado",
  "notifications.title": "Notificaciones",
  "notifications.unread": "{count, plural, one {# sin leer} other {# sin leer}}",
  "notifications.unreadLabel": "Sin leer:",
  "notifications.new": "Nueva notificación: {title}",
  "notifications.markAllRead": "Marcar todo como leído",
  "notifications.seeAll": "Ver todas las notificaciones",
  "notifications.empty": "Estás al día.",
  "notifications.emptyPage":
    "Aún no hay notificaciones. Te avisaremos cuando aprueben tus peticiones o alguien ore por ellas.",
  "notifications.allRead": "Todo leído.",
  "notifications.showMore": "Mostrar más",
};
