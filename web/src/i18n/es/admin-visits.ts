import type { adminVisits as english } from "../en/admin-visits.ts";

/** Spanish: staff: visit requests (features/visits/admin). */
export const adminVisits: Record<keyof typeof english, string> = {
  "admin.visits.title": "Solicitudes de visita",
  "admin.visits.intro":
    "Personas que usaron «Planifica tu visita» en el sitio web. Ponte en contacto y anota lo que ocurrió.",
  "admin.visits.filter": "Filtrar por estado",
  "admin.visits.all": "Todas",
  "admin.visits.status.NEW": "Nueva",
  "admin.visits.status.CONTACTED": "Contactada",
  "admin.visits.status.CLOSED": "Cerrada",
  "admin.visits.count": "{count, plural, one {# solicitud} other {# solicitudes}}",
  "admin.visits.empty.NEW": "No hay solicitudes nuevas. ¡Buen trabajo!",
  "admin.visits.empty.CONTACTED": "No hay solicitudes pendientes después de un primer contacto.",
  "admin.visits.empty.CLOSED": "Aún no hay solicitudes cerradas.",
  "admin.visits.empty.all": "Aún no hay solicitudes de visita. Llegan desde la página «Planifica tu visita».",
  "admin.visits.name": "Nombre",
  "admin.visits.hasNote": "Nota del equipo",
  "admin.visits.moveTo.CONTACTED": "Marcar como contactadas",
  "admin.visits.moveTo.CLOSED": "Cerrar",
  "admin.visits.bulkDone":
    "{count, plural, one {# solicitud está} other {# solicitudes están}} ahora en «{status}».",
  "admin.visits.bulkFailed":
    "{count, plural, one {# solicitud no cambió} other {# solicitudes no cambiaron}}: {message}",
  "admin.visits.received": "Enviada",
  "admin.visits.email": "Correo",
  "admin.visits.phone": "Teléfono",
  "admin.visits.plannedDate": "Visita prevista",
  "admin.visits.partySize": "Grupo",
  "admin.visits.people": "{count, plural, one {# persona} other {# personas}}",
  "admin.visits.notGiven": "No indicado",
  "admin.visits.message": "Mensaje",
  "admin.visits.statusLabel": "Estado",
  "admin.visits.note": "Nota del personal",
  "admin.visits.noteHint": "Solo la ve el personal.",
  "admin.visits.save": "Guardar",
  "admin.visits.addPerson": "Añadir a las personas",
  "admin.visits.addPersonFor": "Añadir a {name} a las personas",
  "admin.visits.addPersonHint":
    "Crea una persona con el estado «Visitante», con este correo y teléfono privados, vinculada a esta visita.",
  "admin.visits.createPerson": "Crear persona",
  "admin.visits.openPerson": "Abrir la ficha de {name}",
  "admin.visits.followUp": "Seguimiento de {name}",
};
