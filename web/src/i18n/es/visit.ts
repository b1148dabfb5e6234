import type { visit as english } from "../en/visit.ts";

/** Spanish: plan a visit (features/visits). */
export const visit: Record<keyof typeof english, string> = {
  "visit.title": "Planea tu visita",
  "visit.intro": "Nos encantaría conocerte. Dinos cuándo vienes y te estaremos esperando en {church}.",
  "visit.expectTitle": "Qué esperar",
  "visit.expect1": "Una bienvenida cálida en la puerta: alguien te enseñará el lugar.",
  "visit.expect2": "Ven como eres; no hay código de vestimenta.",
  "visit.expect3": "Los niños siempre son bienvenidos.",
  "visit.formTitle": "Avísanos de que vienes",
  "visit.name": "Tu nombre",
  "visit.emailHint": "Te enviaremos una confirmación aquí.",
  "visit.plannedDate": "Fecha de tu visita",
  "visit.partySize": "¿Cuántas personas?",
  "visit.partySizeHint": "Contándote a ti.",
  "visit.message": "¿Algo que debamos saber?",
  "visit.messageHint": "Preguntas, necesidades de accesibilidad, edades de los niños… Hasta 2000 caracteres.",
  "visit.privacy": "Solo usamos estos datos para recibirte y hacer seguimiento de tu visita.",
  "visit.submit": "Planear mi visita",
  "visit.sending": "Enviando…",
  "visit.thanksTitle": "¡Gracias, {name}!",
  "visit.thanksDate": "Te esperamos el {date}.",
  "visit.thanksNoDate": "Te esperamos con ilusión.",
  "visit.thanksEmail":
    "Te hemos enviado una confirmación a {email}, y alguien de la iglesia se pondrá en contacto contigo.",
};
