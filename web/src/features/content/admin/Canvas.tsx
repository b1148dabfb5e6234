import { useState, type KeyboardEvent } from "react";
import { useI18n } from "../../../i18n/I18nProvider.tsx";

/** Words in a Markdown text as a reader sees it (no image addresses, link targets or markers). */
export function countWords(markdown: string): number {
  const text = markdown
    .replace(/```[^\n]*\n/g, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/[#>*_`~|\\-]+/g, " ");
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’.,:;!?]*/gu)?.length ?? 0;
}

/** Reading time in whole minutes (about 230 words a minute, at least one). */
export const readingMinutes = (words: number) => Math.max(1, Math.round(words / 230));

export function WordCount({ markdown }: { markdown: string }) {
  const { t } = useI18n();
  const words = countWords(markdown);
  return (
    <p className="body-field__stats muted small">
      {words
        ? t("admin.content.canvas.stats", { words, minutes: readingMinutes(words) })
        : t("admin.content.canvas.noWords")}
    </p>
  );
}

/** Focus mode: only the title and the text (the side panel and the site's header step aside). */
export function useFocusMode() {
  const { t } = useI18n();
  const [focus, setFocus] = useState(false);
  const button = (
    <button
      type="button"
      className="button button--ghost button--small"
      aria-pressed={focus}
      onClick={() => setFocus((on) => !on)}
    >
      {t("admin.content.canvas.focus")}
    </button>
  );
  return { focus, button, className: focus ? " editor-page--focus" : "" };
}

const SETTINGS_KEY = "flock.editor.settings";

/**
 * The settings side panel (address, summary, cover, audience, history) can be put away for room to
 * write; publishing stays at hand. The choice is remembered on this device, for every document.
 */
export function useSettingsPanel(controls: string) {
  const { t } = useI18n();
  const [open, setOpen] = useState(() => {
    try {
      return localStorage.getItem(SETTINGS_KEY) !== "closed";
    } catch {
      return true;
    }
  });
  const toggle = () =>
    setOpen((was) => {
      try {
        localStorage.setItem(SETTINGS_KEY, was ? "closed" : "open");
      } catch {
        /* storage disabled: the choice lasts for this page only */
      }
      return !was;
    });
  const button = (
    <button
      type="button"
      className="button button--ghost button--small"
      aria-expanded={open}
      aria-controls={controls}
      onClick={toggle}
    >
      {t("admin.content.settingsToggle")}
    </button>
  );
  return { open, button, className: open ? "" : " editor-page--settings-closed" };
}

/** A title is one line (it wraps on screen like a heading; a pasted line break becomes a space). */
export const oneLine = (value: string) => value.replace(/\s*[\r\n]+\s*/g, " ");

/** Enter in the title moves on to the text instead of breaking the line. */
export function titleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
  event.preventDefault();
  event.currentTarget.closest(".editor-main")?.querySelector<HTMLElement>(".ProseMirror")?.focus();
}
