// The editor's own strings (its UI and Crepe's labels), in the app's two languages.
//
// They live here rather than in i18n/en.ts so the editor folder stays self-contained and its
// strings ship in the editor chunk only. The language is the one the app's I18nProvider writes
// to <html lang> (so the editor follows the language switcher on its next mount).

export interface EditorMessages {
  uploading: string;
  uploadingPercent: string;
  uploadFailed: string;
  dismiss: string;
  placeholder: string;
  linkPlaceholder: string;
  uploadButton: string;
  uploadPlaceholder: string;
  confirm: string;
  altTextPlaceholder: string;
  bold: string;
  italic: string;
  strikethrough: string;
  inlineCode: string;
  link: string;
  groupText: string;
  text: string;
  heading1: string;
  heading2: string;
  heading3: string;
  heading4: string;
  heading5: string;
  heading6: string;
  quote: string;
  divider: string;
  groupList: string;
  bulletList: string;
  orderedList: string;
  taskList: string;
  groupAdvanced: string;
  image: string;
  codeBlock: string;
  table: string;
}

const en: EditorMessages = {
  uploading: "Uploading image",
  uploadingPercent: "Uploading image… {percent}%",
  uploadFailed: "The image could not be uploaded. Please try again.",
  dismiss: "Dismiss",
  placeholder: "Type here, or press / for headings, lists and images…",
  linkPlaceholder: "Paste a link…",
  uploadButton: "Upload image",
  uploadPlaceholder: "or paste an image link",
  confirm: "Confirm",
  altTextPlaceholder: "Describe the image for people who cannot see it",
  bold: "Bold",
  italic: "Italic",
  strikethrough: "Strikethrough",
  inlineCode: "Inline code",
  link: "Link",
  groupText: "Text",
  text: "Text",
  heading1: "Heading 1",
  heading2: "Heading 2",
  heading3: "Heading 3",
  heading4: "Heading 4",
  heading5: "Heading 5",
  heading6: "Heading 6",
  quote: "Quote",
  divider: "Divider",
  groupList: "Lists",
  bulletList: "Bullet list",
  orderedList: "Numbered list",
  taskList: "Checklist",
  groupAdvanced: "Insert",
  image: "Image",
  codeBlock: "Code",
  table: "Table",
};

const es: EditorMessages = {
  uploading: "Subiendo imagen",
  uploadingPercent: "Subiendo imagen… {percent}%",
  uploadFailed: "No se pudo subir la imagen. Inténtelo de nuevo.",
  dismiss: "Cerrar",
  placeholder: "Escriba aquí, o pulse / para títulos, listas e imágenes…",
  linkPlaceholder: "Pegue un enlace…",
  uploadButton: "Subir imagen",
  uploadPlaceholder: "o pegue el enlace de una imagen",
  confirm: "Confirmar",
  altTextPlaceholder: "Describa la imagen para quien no pueda verla",
  bold: "Negrita",
  italic: "Cursiva",
  strikethrough: "Tachado",
  inlineCode: "Código",
  link: "Enlace",
  groupText: "Texto",
  text: "Texto",
  heading1: "Título 1",
  heading2: "Título 2",
  heading3: "Título 3",
  heading4: "Título 4",
  heading5: "Título 5",
  heading6: "Título 6",
  quote: "Cita",
  divider: "Separador",
  groupList: "Listas",
  bulletList: "Lista con viñetas",
  orderedList: "Lista numerada",
  taskList: "Lista de tareas",
  groupAdvanced: "Insertar",
  image: "Imagen",
  codeBlock: "Código",
  table: "Tabla",
};

/** The messages for the page's language (<html lang>, set by the app's I18nProvider). */
export function editorMessages(
  lang = typeof document === "undefined" ? "en" : document.documentElement.lang,
): EditorMessages {
  return lang.toLowerCase().startsWith("es") ? es : en;
}

export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}
