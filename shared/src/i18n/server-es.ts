import type { ServerMessageKey } from "./server-en.ts";

/** Spanish for server-en.ts. The type makes a missing or extra key a compile error. */
export const serverEs: Record<ServerMessageKey, string> = {
  "mail.hello": "Hola, {name}:",

  "auth.verify.subject": "Confirma tu correo para {church}",
  "auth.verify.welcome": "¡Te damos la bienvenida a {church}!",
  "auth.verify.body": "Confirma tu dirección de correo con el botón de abajo.",
  "auth.verify.button": "Confirmar mi correo",
  "auth.verify.footnote": "Si no creaste una cuenta, puedes ignorar este mensaje.",
  "auth.reset.subject": "Restablece tu contraseña de {church}",
  "auth.reset.hello": "Hola:",
  "auth.reset.body":
    "Alguien pidió restablecer la contraseña de tu cuenta de {church}. Elige una nueva con el botón de abajo.",
  "auth.reset.button": "Elegir una contraseña nueva",
  "auth.reset.footnote":
    "El enlace funciona durante 30 minutos. Si no fuiste tú, puedes ignorar este mensaje: tu contraseña no cambia.",
  "auth.alert.subject": "Nuevo inicio de sesión en tu cuenta de {church}",
  "auth.alert.body": "Alguien inició sesión en tu cuenta de {church} desde un dispositivo o lugar nuevo:",
  "auth.alert.ok": "Si fuiste tú, no tienes que hacer nada.",
  "auth.alert.button": "No fui yo: restablecer mi contraseña",

  "signupAttempt.subject": "Alguien intentó registrarse en {church} con tu dirección",
  "signupAttempt.body":
    "Alguien intentó crear una cuenta en {church} con esta dirección de correo. Esta dirección ya tiene una cuenta, así que no se cambió nada.",
  "signupAttempt.forgot":
    "Si fuiste tú, inicia sesión con tu contraseña. Si la olvidaste, restablécela aquí: {url}",
  "signupAttempt.ignore": "Si no fuiste tú, puedes ignorar este correo.",
  "signupAttempt.button": "Iniciar sesión",

  "signupApproved.title": "Tu membresía está aprobada",
  "signupApproved.body": "Las áreas para miembros ya están abiertas para ti.",
  "signupApproved.welcome":
    "¡Te damos la bienvenida a {church}! Tu membresía está aprobada: las áreas para miembros ya están abiertas para ti. Completa tu perfil y elige quién puede ver tus datos de contacto.",
  "signupApproved.button": "Abrir mi página",

  "deletion.subject": "{name} pidió que se borren sus datos",
  "deletion.body":
    "{name} pidió a {church} que borre los datos personales que la aplicación tiene sobre esa persona.",
  "deletion.next":
    "Revisa su ficha y luego anonimízala: se eliminan los datos personales, los archivos y el acceso, y se conservan los registros que la iglesia usa para sus recuentos.",
  "deletion.button": "Abrir su ficha",

  "invitation.subject": "{inviter} te invitó a unirte a {household} en {church}",
  "invitation.body": "{inviter} te invitó a unirte al hogar “{household}” en la aplicación de {church}.",
  "invitation.link":
    "Crea tu cuenta con el enlace de abajo (funciona durante {days, plural, one {# día} other {# días}}).",
  "invitation.button.hint":
    "Crea tu cuenta con el botón de abajo (funciona durante {days, plural, one {# día} other {# días}}).",
  "invitation.confirm":
    "La oficina de la iglesia confirma las cuentas nuevas antes de abrir las áreas para miembros.",
  "invitation.ignore": "Si no conoces a esta persona, puedes ignorar este mensaje.",
  "invitation.button": "Crear tu cuenta",

  "contact.subject": "{sender} te envió un mensaje a través de {church}",
  "contact.footer":
    "{sender} te escribió a través del directorio de miembros de {church}. {shown, select, yes {Puede ver esta dirección de correo en tu ficha del directorio (tu configuración de privacidad decide quién puede verla).} other {Esta dirección de correo no se le mostró.}} Si respondes, verá la dirección desde la que respondas.",

  "visit.subject": "Tu visita a {church}",
  "visit.thanks":
    "Gracias por planificar una visita a {church}. {hasDate, select, yes {Esperamos verte el {date}} other {Esperamos verte}}{party, plural, =0 {} =1 {} other { (un grupo de #)}}. Es posible que alguien de la iglesia se ponga en contacto contigo antes.",
  "visit.times": "Horarios de culto:",
  "visit.where": "Dónde: {address}",
  "visit.ignore": "Si no planificaste una visita, puedes ignorar este mensaje.",

  // Eventos: inscripción, plaza liberada y confirmación de asistencia.
  "event.registered.subject":
    "{confirmed, plural, =0 {En lista de espera} other {Inscripción confirmada}}: {event}",
  "event.registered.when": "{event} — {when}{hasPlace, select, yes {, {place}} other {}}.",
  "event.registered.confirmed": "Confirmadas: {count, plural, one {# plaza} other {# plazas}}.",
  "event.registered.waitlisted":
    "En lista de espera: {count, plural, one {# plaza} other {# plazas}}. Te escribiremos si se libera un lugar.",
  "event.registered.answer": "{question} — {answer}",
  "event.answer.yes": "Sí",
  "event.answer.no": "No",
  "event.registered.code": "Tu código de confirmación: {code}",
  "event.registered.cancelHint":
    "Si cambian tus planes, cancela con el botón de abajo para que otra persona pueda venir.",
  "event.registered.button": "Ver o cancelar mi inscripción",
  "event.promoted.subject": "Tienes plaza: {event}",
  "event.promoted.body":
    "Se liberó un lugar y tu inscripción para {event} — {when} ya está confirmada ({count, plural, one {# plaza} other {# plazas}}).",
  "event.moved.subject": "Nueva fecha para tu inscripción: {event}",
  "event.moved.body":
    "Tu inscripción para {event} se pasó al {when}. {status, select, confirmed {{count, plural, one {Tu plaza está confirmada.} other {Tus # plazas están confirmadas.}}} other {Estás en el puesto {position} de la lista de espera; te escribiremos si se libera un lugar.}}",
  "event.cancelled.subject": "Cancelado: {event}",
  "event.cancelled.body":
    "{event} — {when} se ha cancelado.{hasNote, select, yes { {note}} other {}} Sentimos el cambio de planes.",
  "event.cancelled.signUp":
    "{kind, select, registration {Tu inscripción} other {Tu respuesta}} para esa fecha ya no aplica; no necesitas hacer nada.",
  "event.cancelled.button": "Ver otros eventos",
  "event.cancelledByStaff.subject": "Se canceló tu inscripción: {event}",
  "event.cancelledByStaff.body":
    "{church} canceló tu inscripción para {event} — {when}. Si es un error, responde a este correo o ponte en contacto con la iglesia.",
  "event.rsvp.subject":
    "Tu respuesta para {event}: {response, select, yes {asistiré} no {no asistiré} other {quizás}}",
  "event.rsvp.body":
    "Gracias por responder para {event} — {when}{hasPlace, select, yes {, {place}} other {}}. Tu respuesta: {response, select, yes {asistiré} no {no asistiré} other {quizás}}{guests, plural, =0 {} one { con # invitado} other { con # invitados}}.",
  "event.rsvp.change":
    "Para cambiar o retirar tu respuesta, usa el botón de abajo, desde cualquier navegador. Funciona sin iniciar sesión, así que guarda este correo para ti.",
  "event.rsvp.changeSignedIn": "Para cambiar tu respuesta, abre la página del evento con tu sesión iniciada.",
  "event.rsvp.button": "Abrir el evento",
  "event.rsvp.manageButton": "Ver o cambiar tu respuesta",

  "prayer.prayed.title": "Alguien oró por tu petición",
  // Servicio: una petición para servir, y un «no puedo» que se cuenta a los líderes del equipo.
  "serving.asked.title": "¿Puedes servir como {position} el {date}?",
  "serving.asked.text": "{leader} te pide servir como {position} ({team}) en {plan} el {date}.",
  "serving.asked.hint":
    "Responde con el botón de abajo: funciona una vez, sin iniciar sesión, así que guarda este correo para ti. También puedes responder, o cambiar de opinión, en Mi servicio.",
  "serving.asked.button": "Responder",
  "serving.declined.title": "{name} no puede servir como {position} el {date}",
  "serving.declined.text":
    "{name} no puede servir como {position} en {plan} el {date}.{hasReason, select, yes { Su motivo: «{reason}»} other {}}",
  "serving.declined.offered": "El puesto se ofreció a {next}.",
  "serving.swap.title": "{name} busca quien sirva como {position} el {date}",
  "serving.swap.text":
    "{name} al final no puede servir como {position} ({team}) en {plan} el {date} y busca quien tome su puesto. Si puedes, tómalo en Mi servicio: lo sirve quien lo tome primero.",
  "serving.swap.button": "Ver el puesto",
  "serving.swapped.title": "{taker} toma el puesto de {name} como {position} el {date}",
  "serving.swapped.text":
    "{taker} tomó el puesto de {name} como {position} ({team}) en {plan} el {date}. {name} ya no sirve ese día.",
  "checkin.page.title": "Por favor ven a {room}: {child} te necesita",
  "checkin.page.text":
    "Los voluntarios de {room} te piden que vengas por {child} ({session}). Trae tu etiqueta de recogida.",
  "groups.request.title": "{name} pide unirse a {group}",
  "groups.approved.title": "Bienvenido a {group}: tu solicitud fue aprobada",
  "groups.request.text":
    "{name} pide unirse a {group}. Como uno de sus líderes, puedes aprobar o rechazar la solicitud en la página del grupo.",
  "groups.request.note": "Su mensaje: «{note}»",
  "groups.request.button": "Responder a la solicitud",
  "groups.approved.text":
    "Un líder aprobó tu solicitud: ya eres miembro de {group} y puedes leer y escribir en su chat.",
  "groups.approved.button": "Abrir el grupo",
  "groups.declined.title": "Tu solicitud para unirte a {group} fue rechazada",
  "groups.declined.text":
    "Un líder de {group} rechazó tu solicitud para unirte. Puedes buscar otro grupo, o preguntar en la oficina de la iglesia sobre este.",
  "groups.chat.title": "Mensajes nuevos en {group}",
  "prayer.approved.title": "Tu petición de oración fue aprobada",
  "prayer.approved.subject": "Tu petición de oración en {church} fue aprobada",
  "prayer.approved.wall":
    "Tu petición de oración ya está en el muro de oración, y otros pueden orar por ella:",
  "prayer.approved.group": "Tu petición de oración fue aprobada y compartida con tu grupo:",
  "prayer.approved.pastoral": "Tu petición de oración fue aprobada y compartida con el equipo pastoral:",
  "prayer.rejected.title": "Tu petición de oración no fue aprobada",
  "prayer.answered.title": "Tu petición de oración se marcó como respondida",
  "prayer.answered.subject": "Tu petición de oración en {church} se marcó como respondida",
  "prayer.answered.text": "Tu petición de oración se marcó como respondida, con este testimonio:",
  "prayer.button.wall": "Verla en el muro de oración",

  "alert.visit.title": "Nueva solicitud de visita de {name}",
  "alert.visit.summary":
    "{name} planea una visita{hasDate, select, yes { para el {date}} other {}}{party, plural, =0 {} =1 {} other { (un grupo de #)}}.",
  "alert.visit.message": "Su mensaje:",
  "alert.visit.next":
    "Dale la bienvenida: ponte en contacto y añádelo a la lista de personas desde la visita.",
  "alert.visit.button": "Abrir las solicitudes de visita",
  "alert.signup.title": "{name} se registró y espera aprobación",
  "alert.signup.body": "Aprueba el registro o vincúlalo a una persona que ya está en la lista.",
  "alert.signup.text":
    "{name} creó una cuenta. Las áreas para miembros se abrirán cuando alguien apruebe el registro (o lo vincule a una persona que ya está en la lista).",
  "alert.signup.button": "Revisar el registro",
  "alert.prayer.title":
    "{pastoral, select, yes {Llegó una petición de oración pastoral} other {Una petición de oración espera moderación}}",
  "alert.prayer.text":
    "{pastoral, select, yes {Una petición solo para los pastores} other {Una petición nueva para el muro de oración}}:",
  "alert.prayer.button": "Abrir las peticiones de oración",

  "notification.webhookDisabled.title": "Se desactivó un webhook a {host}",
  "notification.webhookDisabled.body":
    "{failures, plural, one {# entrega seguida falló} other {# entregas seguidas fallaron}} tras todos los reintentos, así que se desactivó. Revisa el receptor y vuelve a activarlo en Integraciones.",
  "digest.title": "Resumen diario: {count, plural, one {# elemento nuevo} other {# elementos nuevos}}",
  "digest.subject":
    "Resumen diario de {church}: {count, plural, one {# elemento nuevo} other {# elementos nuevos}}",
  "digest.intro": "Esto es lo que llegó a {church} desde tu último resumen.",
  "digest.heading.visits": "Solicitudes de visita nuevas",
  "digest.heading.signups": "Registros que esperan aprobación",
  "digest.heading.prayer": "Peticiones de oración que esperan moderación",
  "digest.section": "{heading} ({count, number}):",
  "digest.count": "{heading}: {count, number}",
  "digest.more": "y {count, number} más",
  "digest.visitLine": "{name}{hasDate, select, yes { — planea visitar el {date}} other {}} ({when})",
  "digest.footer": "Recibes este resumen una vez al día. Puedes cambiarlo en “Notificaciones”, en tu cuenta.",
  "digest.button": "Abrir la oficina de la iglesia",

  "household.defaultName": "Familia {lastName}",

  "page.home.planVisit": "Planifica tu visita",
  "page.home.news": "Noticias",
  "page.title": "{page} · {church}",
  "page.notFound": "Página no encontrada",
  "page.news": "Noticias",
  "page.signIn": "Iniciar sesión",
  "page.signUp": "Crear una cuenta",
  "page.forgotPassword": "Contraseña olvidada",
  "page.resetPassword": "Restablecer la contraseña",
  "page.verifyEmail": "Verificar el correo",
  "page.visit": "Planifica tu visita",
  "page.give": "Dar",
  "page.giveThanks": "Gracias",
  "page.prayer": "Muro de oración",
  "page.prayerRequest": "Petición de oración",
  "page.me": "Mi cuenta",
  "page.directory": "Directorio",
  "page.admin": "Administración",
  "page.developers": "Guía de la API para desarrolladores",
  "page.developersDescription":
    "Cómo leer y escribir en el sitio de {church} con tu propio software: la API GraphQL, tokens, webhooks y feeds.",
  "page.sermons": "Predicaciones",
  "page.events": "Eventos",
  "page.groups": "Grupos",
  "page.eventRegistration": "Mi inscripción",
  "page.servingAnswer": "Una petición para servir",
  "page.servingPlan": "Plan de servicio",
  "feed.news.title": "{church}: Noticias",
  "feed.news.description": "Noticias de {church}",
  "feed.sermons.title": "{church}: Predicaciones",
  "feed.events.title": "{church}: Eventos",
  "feed.sermons.description": "Predicaciones de {church}",

  "serving.reminder.subject": "Recordatorio: sirves el {date}",
  "serving.reminder.text": "Un recordatorio de {church}: sirves en {plan} el {date}.",
  "serving.reminder.places": "{count, plural, one {Tu lugar:} other {Tus lugares:}}",
  "serving.reminder.times": "Horarios:",
  "serving.reminder.hint":
    "Si ya no puedes, avisa cuanto antes a quien lidera tu equipo. Todo lo que sirves está en Mi servicio.",
  "serving.reminder.button": "Abrir Mi servicio",
  "serving.place": "{position} ({team})",
  "serving.time.line": "{label}: {start} – {end}",
  "serving.time.rehearsal": "Ensayo",
  "serving.time.service": "Culto",
  "serving.time.other": "Otro",
  "serving.calendar.summary": "Servicio: {position} ({team}) — {plan}",

  "starting.title": "Iniciando",
  "starting.body": "El sitio se está iniciando y estará listo en un momento. Esta página se recarga sola.",

  // Giving statements (gateway/src/schema/giving/statement-pdf.ts).
  "giving.statement.title": "Resumen de donativos",
  "giving.statement.period": "Del {from} al {to}",
  "giving.statement.for": "Resumen para",
  "giving.statement.date": "Fecha",
  "giving.statement.fund": "Fondo",
  "giving.statement.method": "Forma",
  "giving.statement.amount": "Importe",
  "giving.statement.methodName":
    "{method, select, cash {Efectivo} cheque {Cheque} card {Tarjeta} bank_transfer {Transferencia} online {En línea} other {Otra}}",
  "giving.statement.cheque": "Cheque {number}",
  "giving.statement.none": "No hay donativos en este periodo.",
  "giving.statement.byFund": "Por fondo",
  "giving.statement.deductibleFund": "{name} (deducible)",
  "giving.statement.total": "Total donado",
  "giving.statement.deductible": "Deducible de impuestos",
  "giving.statement.nonDeductible": "No deducible",
  "giving.statement.issued": "Emitido el {date}",
};
