import type { serving as en } from "../en/serving.ts";

/** Español: el servicio para el voluntario — una petición para servir, la página del enlace del correo, Mi servicio. */
export const serving: Record<keyof typeof en, string> = {
  "serving.request.heading": "{position} el {date}",
  "serving.request.yourReason": "Tu motivo: «{reason}»",
  "serving.status.PENDING": "Espera tu respuesta",
  "serving.status.ACCEPTED": "Vas a servir",
  "serving.status.DECLINED": "No puedes",
  "serving.status.CANCELLED": "Retirada",
  "serving.timeKind.REHEARSAL": "Ensayo",
  "serving.timeKind.SERVICE": "Culto",
  "serving.timeKind.OTHER": "Otro",
  "serving.answer.title": "¿Puedes servir?",
  "serving.answer.hello": "Hola, {name}:",
  "serving.answer.accept": "Sí, serviré",
  "serving.answer.decline": "No puedo",
  "serving.answer.declineIntro":
    "Gracias por avisar. Tu líder lo sabrá enseguida para pedírselo a otra persona.",
  "serving.answer.reason": "Motivo",
  "serving.answer.reasonHint": "Lo ven los líderes de tu equipo.",
  "serving.answer.sendDecline": "Enviar: no puedo",
  "serving.answer.thanksYes": "¡Gracias! Ya estás en el turno.",
  "serving.answer.thanksNo": "Gracias por avisar. Tu líder ya lo sabe.",
  "serving.answer.changeLater": "¿Cambiaste de opinión? Inicia sesión y usa",
  "serving.answer.spent":
    "Este enlace ya se usó o ya no es válido. Inicia sesión para ver y cambiar tus respuestas en Mi servicio.",
  "serving.mine.title": "Mi servicio",
  "serving.mine.intro": "Dónde te piden servir a partir de hoy. Puedes cambiar tu respuesta hasta el día.",
  "serving.mine.empty":
    "Aún nadie te ha pedido servir. Cuando un líder de equipo lo haga, aparecerá aquí y por correo.",
  "serving.mine.waiting":
    "{count, plural, one {# petición espera tu respuesta} other {# peticiones esperan tu respuesta}}",
  "serving.mine.upcoming": "Respondidas",
};
