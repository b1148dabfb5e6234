import type { home as english } from "../en/home.ts";

/** Spanish: the front page and the church's details in the footer: service times, address, social links. */
export const home: Record<keyof typeof english, string> = {
  "home.welcome": "Bienvenido a {church}",
  "home.intro":
    "Seas quien seas y estés donde estés en tu camino, aquí eres bienvenido. Acompáñanos esta semana.",
  "home.serviceTimes": "Horarios de culto",
  "home.noServiceTimes": "Pronto anunciaremos los horarios de culto.",
  "home.findUs": "Cómo llegar",
  "home.contact": "Contacto",
  "home.joinUs": "Acompáñanos",
  "home.memberCta": "Miembros: inicien sesión en su cuenta",
  "home.timezoneNote": "Los horarios están en {zone}.",
  "footer.address": "Dirección",
  "footer.contact": "Contacto",
  "footer.services": "Cultos",
  "footer.follow": "Síguenos",
  "social.facebook": "Facebook",
  "social.instagram": "Instagram",
  "social.youtube": "YouTube",
  "social.website": "Sitio web",
  "time.weekday.MONDAY": "Lunes",
  "time.weekday.TUESDAY": "Martes",
  "time.weekday.WEDNESDAY": "Miércoles",
  "time.weekday.THURSDAY": "Jueves",
  "time.weekday.FRIDAY": "Viernes",
  "time.weekday.SATURDAY": "Sábado",
  "time.weekday.SUNDAY": "Domingo",
  "home.planVisit": "Planea tu visita",
};
