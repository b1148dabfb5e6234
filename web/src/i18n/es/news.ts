import type { news as english } from "../en/news.ts";

/** Spanish: the news list, a post and the latest news on the front page (features/content). */
export const news: Record<keyof typeof english, string> = {
  "news.title": "Noticias",
  "news.empty": "Todavía no hay noticias. Vuelve pronto.",
  "news.older": "Noticias anteriores",
  "news.pinned": "Destacada",
  "news.invite.title": "Inicia sesión para leer esto",
  "news.invite.body":
    "Esta noticia no está disponible para todos. Si es para nuestros miembros, inicia sesión y volverás directamente aquí.",
  "news.invite.signIn": "Iniciar sesión",
  "news.invite.allNews": "Todas las noticias",
  "news.membersOnly": "Solo miembros",
  "news.latest": "Últimas noticias",
  "news.all": "Todas las noticias",
  "news.status.DRAFT": "Borrador",
  "news.status.SCHEDULED": "Programada",
  "news.status.PUBLISHED": "Publicada",
  "news.status.ARCHIVED": "Archivada",
};
