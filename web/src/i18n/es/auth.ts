import type { auth as english } from "../en/auth.ts";

/** Spanish: sign in, sign up, password reset, email verification (features/auth). */
export const auth: Record<keyof typeof english, string> = {
  "auth.password": "Contraseña",
  "auth.signIn.title": "Iniciar sesión",
  "auth.signIn.submit": "Iniciar sesión",
  "auth.signIn.forgot": "¿Olvidaste tu contraseña?",
  "auth.signIn.noAccount": "¿Eres nuevo?",
  "auth.signUp.title": "Crea tu cuenta",
  "auth.signUp.intro":
    "Los miembros de {church} pueden ver el directorio, los grupos y las noticias para miembros cuando la oficina de la iglesia aprueba la cuenta.",
  "auth.signUp.submit": "Crear cuenta",
  "auth.signUp.haveAccount": "¿Ya tienes una cuenta?",
  "auth.signUp.closed":
    "El registro en línea está cerrado. Comunícate con la oficina de la iglesia para obtener una cuenta.",
  "auth.signUp.checkEmail": "Revisa tu correo",
  "auth.signUp.sent":
    "Enviamos un mensaje a {email}. Abre el enlace que contiene para confirmar tu dirección y luego inicia sesión.",
  "auth.signUp.sentNext":
    "Si esta dirección ya tiene una cuenta, el mensaje te explica cómo iniciar sesión o restablecer tu contraseña. ¿No llegó nada después de unos minutos? Mira en la carpeta de correo no deseado.",
  "auth.forgot.title": "¿Olvidaste tu contraseña?",
  "auth.forgot.intro": "Escribe tu correo y te enviaremos un enlace para elegir una nueva contraseña.",
  "auth.forgot.submit": "Enviar enlace",
  "auth.forgot.sent":
    "Si existe una cuenta para {email}, te llegará un enlace. El enlace funciona durante 30 minutos.",
  "auth.reset.title": "Elige una nueva contraseña",
  "auth.reset.submit": "Guardar la nueva contraseña",
  "auth.reset.done": "Tu contraseña se cambió. Se cerró la sesión en tus otros dispositivos.",
  "auth.reset.missingToken": "Esta página necesita el enlace del correo de restablecimiento.",
  "auth.reset.requestNew": "Pedir un enlace nuevo",
  "auth.verify.title": "Confirma tu correo",
  "auth.verify.working": "Confirmando tu correo…",
  "auth.verify.done": "Gracias, tu correo electrónico está confirmado.",
  "auth.verify.failed": "Este enlace no es válido o ha caducado.",
  "auth.verify.resend": "Enviar un enlace nuevo",
  "auth.verify.resent": "Si {email} tiene una cuenta sin confirmar, te llegará un enlace nuevo.",
  "auth.backToSignIn": "Volver a iniciar sesión",
  "auth.continue": "Continuar",
  "auth.signUp.invited":
    "Te unes a un hogar al que te invitaron. Crea tu cuenta aquí abajo; la oficina de la iglesia la confirma.",
  "auth.signUp.inviteInvalid":
    "Este enlace de invitación no es válido o ha caducado. Pide uno nuevo a quien te invitó, o",
  "auth.signUp.withoutInvite": "crea una cuenta sin invitación.",
};
