import type { directory as english } from "../en/directory.ts";

/** Spanish: the member directory (features/people, /directory). */
export const directory: Record<keyof typeof english, string> = {
  "directory.title": "Directorio",
  "directory.intro":
    "Los miembros que eligieron aparecer. Cada persona decide cuáles de sus datos se muestran aquí.",
  "directory.myListing": "Mi ficha y privacidad",
  "directory.myListingLink": "Elige qué ven los demás de ti.",
  "directory.search": "Buscar por nombre",
  "directory.searchHint": "Nombre, apellido o nombre preferido, o el nombre del hogar.",
  "directory.count": "{count, plural, one {# hogar} other {# hogares}}",
  "directory.matches": "{count, plural, one {# hogar coincide} other {# hogares coinciden}} con «{q}»",
  "directory.empty": "Todavía no hay nadie en el directorio.",
  "directory.noMatch":
    "Nadie coincide con «{q}». Revisa la ortografía o prueba solo con el nombre o el apellido.",
  "directory.clearSearch": "Borrar la búsqueda",
  "directory.showMore": "Mostrar más",
  "directory.memberOf": "Hogar: {name}",
  "directory.householdOf": "También en {name}",
  "directory.nothingShared":
    "No comparte datos de contacto contigo. Aun así puedes escribirle con el botón Contactar.",
  "directory.thisIsYou": "Eres tú.",
  "directory.pendingTitle": "Tu membresía está pendiente de aprobación",
  "directory.pendingBody":
    "El directorio se abre cuando la oficina de la iglesia confirma tu cuenta. Recibirás un correo cuando lo haga.",
  "directory.membersOnlyTitle": "El directorio es para miembros",
  "directory.membersOnlyBody":
    "Solo los miembros activos de la iglesia pueden ver el directorio. Si crees que es un error, ponte en contacto con la oficina de la iglesia.",
  "directory.backToAccount": "Ir a mi cuenta",
  "directory.contact.open": "Contactar a {name}",
  "directory.contact.title": "Escribir a {name}",
  "directory.contact.privacy":
    "{name} recibirá tu mensaje por correo, con tu nombre y tu correo ({email}) para que pueda responderte si quiere. Su dirección no se te muestra.",
  "directory.contact.message": "Mensaje",
  "directory.contact.count": "{count} de {max} caracteres",
  "directory.contact.empty": "Escribe primero un mensaje.",
  "directory.contact.send": "Enviar mensaje",
  "directory.contact.sending": "Enviando…",
  "directory.contact.sent": "Mensaje enviado",
  "directory.contact.sentBody": "Si {name} responde, la respuesta llegará a tu correo.",
  "directory.contact.note":
    "Los mensajes pasan por la aplicación de la iglesia: su dirección sigue siendo privada; la tuya se le envía para que pueda responderte.",
  "directory.contact.privacyShared":
    "{name} recibirá tu mensaje por correo, con tu nombre y tu correo ({email}) para que pueda responderte si quiere. {name} comparte contigo una dirección de correo en esta página; el mensaje va a su dirección principal.",
  "directory.contact.noteShared":
    "Los mensajes pasan por la aplicación de la iglesia; tu dirección se le envía para que pueda responderte.",
  "directory.notShown": "No visible para otros miembros",
};
