import type { giving as en } from "../en/giving.ts";

/** Español: las ofrendas de un miembro — sus donativos y constancias en /me/giving. */
export const giving: Record<keyof typeof en, string> = {
  "giving.mine.title": "Mis ofrendas",
  "giving.mine.intro":
    "Tus donativos y, si eres adulto en un hogar, los de tu hogar. Tu resumen tiene los totales para tu declaración de impuestos.",
  "giving.mine.year": "Año",
  "giving.mine.empty": "Aún no hay donativos registrados en {year}.",
  "giving.mine.totals": "Totales de {year}",
  "giving.mine.total": "Total donado",
  "giving.mine.deductible": "Deducible de impuestos",
  "giving.mine.nonDeductible": "No deducible",
  "giving.mine.download": "Descargar resumen (PDF)",
  "giving.mine.downloadHint": "Tu resumen de donativos de {year}.",
  "giving.mine.gifts": "Donativos de {year}",
  "giving.mine.date": "Fecha",
  "giving.mine.funds": "Fondo",
  "giving.mine.method": "Forma",
  "giving.mine.givenBy": "Donado por",
  "giving.mine.amount": "Importe",
  "giving.mine.methodName":
    "{method, select, CASH {Efectivo} CHEQUE {Cheque} CARD {Tarjeta} BANK_TRANSFER {Transferencia} ONLINE {En línea} other {Otra}}",
  "giving.mine.cheque": "Cheque {number}",
  "giving.mine.individual": "(individualmente)",
  "giving.pledges.title": "Mis compromisos",
  "giving.pledges.period": "Del {from} al {to}",
  "giving.pledges.closed": "cerrada",
  "giving.pledges.by": "comprometido por {name}",
  "giving.pledges.progressOf": "Dado para el compromiso con {name}",
  "giving.pledges.given": "{given} dados de {pledged} comprometidos ({percent} %)",
};
