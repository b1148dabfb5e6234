import type { people as english } from "../en/people.ts";

/** Spanish: what the directory, my account and the staff's people screens say about people: contact kinds, roles, age groups, visibility, photos. */
export const people: Record<keyof typeof english, string> = {
  "people.email": "Correo",
  "people.birthday": "Cumpleaños",
  "people.birthDate": "Fecha de nacimiento",
  "people.address": "Dirección",
  "phoneKind.MOBILE": "Móvil",
  "phoneKind.HOME": "Casa",
  "phoneKind.WORK": "Trabajo",
  "phoneKind.OTHER": "Teléfono",
  "householdRole.HEAD": "Cabeza de familia",
  "householdRole.SPOUSE": "Cónyuge",
  "householdRole.CHILD": "Hijo/a",
  "householdRole.OTHER": "Miembro del hogar",
  "ageGroup.ADULT": "Adulto",
  "ageGroup.YOUTH": "Joven",
  "ageGroup.CHILD": "Niño/a",
  "visibility.PRIVATE": "Solo yo",
  "visibility.LEADERS": "Líderes de grupo",
  "visibility.GROUPS": "Mis grupos",
  "visibility.MEMBERS": "Todos los miembros",

  "photo.upload": "Subir una foto",
  "photo.replace": "Cambiar foto",
  "photo.remove": "Quitar foto",
  "photo.confirmRemove": "¿Quitar esta foto?",
  "photo.none": "Todavía no hay foto.",
  "photo.uploading": "Subiendo la foto: {percent}%",
  "photo.saved": "Foto guardada.",
  "photo.removed": "Foto quitada.",
};
