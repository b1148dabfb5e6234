import { useEffect, useRef, useState as useStateCompat, type ReactNode } from "react";
import { useBodyImageRow } from "./BodyImages.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { mediaIdsIn } from "../../../lib/media.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";

export interface HistoryEntry {
  id: string;
  title: string;
  body: string;
  published: boolean;
  saved: string;
  editorName: string;
  /** Saved by an API token (posts' history), not by a person. */
  byApiToken?: boolean;
}

/**
 * A published document's changes that are not live yet ("Update" puts them live, or they are
 * discarded), shown in the publishing card.
 */
export function UnpublishedChanges({
  pending,
  canPublish,
  busy,
  onUpdate,
  onDiscard,
}: {
  pending: boolean;
  canPublish: boolean;
  busy: boolean;
  onUpdate(): void;
  onDiscard(): void;
}) {
  const { t } = useI18n();
  if (!pending) return <p className="muted small">{t("admin.content.changes.none")}</p>;
  return (
    <div className="unpublished-changes" role="status">
      <p>
        <span className="badge badge--warn">{t("admin.content.changes.unpublished")}</span>{" "}
        <span className="small">{t("admin.content.changes.explain")}</span>
      </p>
      <div className="workflow">
        {canPublish && (
          <button type="button" className="button" disabled={busy} onClick={onUpdate}>
            {t("admin.content.action.update")}
          </button>
        )}
        <button type="button" className="button button--ghost" disabled={busy} onClick={onDiscard}>
          {t("admin.content.action.discardChanges")}
        </button>
      </div>
    </div>
  );
}

/** The last saved versions, each viewable and restorable. */
export function HistoryPanel({
  entries,
  busy,
  readOnly,
  onRestore,
}: {
  entries: readonly HistoryEntry[];
  busy: boolean;
  readOnly: boolean;
  onRestore(entry: HistoryEntry): void;
}) {
  const { t } = useI18n();
  const { format } = useChurchDateTime();
  return (
    <section className="card editor-card history" aria-labelledby="history-title">
      <h2 id="history-title">{t("admin.content.history.title")}</h2>
      {entries.length === 0 ? (
        <p className="muted small">{t("admin.content.history.empty")}</p>
      ) : (
        <ol className="history__list">
          {entries.map((entry) => (
            <li key={entry.id} className="history__item">
              <p className="small">
                <time dateTime={entry.saved}>{format(entry.saved)}</time> · {entry.editorName || "—"}{" "}
                {entry.byApiToken && <span className="badge">{t("admin.content.history.apiToken")}</span>}{" "}
                {entry.published && <span className="badge">{t("admin.content.history.published")}</span>}
              </p>
              <details>
                <summary>{t("admin.content.history.preview", { title: entry.title })}</summary>
                <div className="history__text">
                  <p className="history__title">{entry.title}</p>
                  <pre>{entry.body}</pre>
                </div>
              </details>
              {!readOnly && (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  disabled={busy}
                  aria-label={t("admin.content.history.restoreFor", { time: format(entry.saved) })}
                  onClick={() => onRestore(entry)}
                >
                  {t("admin.content.history.restore")}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The first words of the text, as the site shows a post without a summary. */
export function generatedSummary(markdown: string): string {
  const text = markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#>*_`~-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 160 ? `${text.slice(0, 157).trimEnd()}…` : text;
}

export interface ChecklistInput {
  title: string;
  /** Posts: the summary (empty: generated from the text). Pages: undefined. */
  summary?: string;
  body: string;
  cover?: { alt: string } | null;
  /** Posts: "Everyone" / "Members". */
  audience?: string;
  /** When it goes live, in words. */
  when: string;
}

/**
 * The confirm step before publishing or updating: what will go live, and what must be fixed first.
 * Missing alt text (cover or any image in the text) blocks the confirm button.
 */
export function PublishChecklist({
  open,
  input,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
  onFixAlt,
}: {
  open: boolean;
  input: ChecklistInput;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
  onFixAlt(id: string): void;
}) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open && !dialog.current?.open) dialog.current?.showModal();
    if (!open && dialog.current?.open) dialog.current.close();
  }, [open]);
  const images = mediaIdsIn(input.body);
  const missing = new Set<string>();
  const items: ReactNode[] = [];
  const ok = (key: string, text: ReactNode) => items.push(<ChecklistItem key={key} ok text={text} />);
  if (input.title.trim()) ok("title", t("admin.content.checklist.title", { title: input.title }));
  else items.push(<ChecklistItem key="title" ok={false} text={t("admin.content.checklist.noTitle")} />);
  if (input.summary !== undefined) {
    ok(
      "summary",
      input.summary.trim()
        ? t("admin.content.checklist.summary", { summary: input.summary })
        : t("admin.content.checklist.summaryGenerated", { summary: generatedSummary(input.body) }),
    );
  }
  if (input.cover !== undefined) {
    if (!input.cover) ok("cover", t("admin.content.checklist.noCover"));
    else if (input.cover.alt.trim())
      ok("cover", t("admin.content.checklist.cover", { alt: input.cover.alt }));
    else {
      missing.add("cover");
      items.push(<ChecklistItem key="cover" ok={false} text={t("admin.content.checklist.coverNoAlt")} />);
    }
  }
  if (input.audience) ok("audience", t("admin.content.checklist.audience", { audience: input.audience }));
  ok("when", input.when);

  return (
    <dialog
      ref={dialog}
      className="dialog dialog--wide checklist-dialog"
      aria-labelledby="checklist-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {open && (
        <ChecklistBody
          items={items}
          images={images}
          coverMissing={missing.has("cover")}
          titleMissing={!input.title.trim()}
          confirmLabel={confirmLabel}
          busy={busy}
          onConfirm={onConfirm}
          onCancel={onCancel}
          onFixAlt={onFixAlt}
        />
      )}
    </dialog>
  );
}

function ChecklistBody({
  items,
  images,
  coverMissing,
  titleMissing,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
  onFixAlt,
}: {
  items: ReactNode[];
  images: string[];
  coverMissing: boolean;
  titleMissing: boolean;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
  onFixAlt(id: string): void;
}) {
  const { t } = useI18n();
  const statuses = useRef(new Map<string, boolean>());
  const [, rerender] = useRerender();
  const imagesMissing = images.some((id) => statuses.current.get(id) !== true);
  const blocked = titleMissing || coverMissing || imagesMissing;
  return (
    <div className="form">
      <h2 id="checklist-title">{t("admin.content.checklist.heading")}</h2>
      <ul className="checklist">
        {items}
        {images.map((id) => (
          <ImageItem
            key={id}
            id={id}
            onStatus={(hasAlt) => {
              if (statuses.current.get(id) === hasAlt) return;
              statuses.current.set(id, hasAlt);
              rerender();
            }}
            onFixAlt={onFixAlt}
          />
        ))}
      </ul>
      {blocked && (
        <p className="field__error" role="alert">
          {t("admin.content.checklist.blocked")}
        </p>
      )}
      <div className="actions">
        <button type="button" className="button" disabled={busy || blocked} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </div>
  );
}

function useRerender(): [number, () => void] {
  const [count, setCount] = useStateCompat(0);
  return [count, () => setCount((c) => c + 1)];
}

function ChecklistItem({ ok, text, action }: { ok: boolean; text: ReactNode; action?: ReactNode }) {
  const { t } = useI18n();
  return (
    <li className={`checklist__item checklist__item--${ok ? "ok" : "missing"}`}>
      <span className="checklist__mark" aria-hidden="true">
        {ok ? "✓" : "!"}
      </span>
      <span className="visually-hidden">
        {ok ? t("admin.content.checklist.ok") : t("admin.content.checklist.missing")}
      </span>
      <span className="checklist__text">{text}</span>
      {action}
    </li>
  );
}

function ImageItem({
  id,
  onStatus,
  onFixAlt,
}: {
  id: string;
  onStatus(hasAlt: boolean): void;
  onFixAlt(id: string): void;
}) {
  const { t } = useI18n();
  const { data } = useBodyImageRow({ variables: { id } });
  const media = data?.media;
  const hasAlt = !!media && (media.kind !== "IMAGE" || !!media.alt.trim());
  useEffect(() => {
    if (media) onStatus(hasAlt);
  }, [media, hasAlt, onStatus]);
  if (!media) return null;
  if (hasAlt)
    return (
      <ChecklistItem
        ok
        text={t("admin.content.checklist.imageAlt", { name: media.filename, alt: media.alt })}
      />
    );
  return (
    <ChecklistItem
      ok={false}
      text={
        <>
          <img src={media.thumbnail} alt="" width={48} height={36} className="checklist__thumb" />{" "}
          {t("admin.content.checklist.imageNoAlt", { name: media.filename })}
        </>
      }
      action={
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => onFixAlt(media.id)}
          aria-label={t("admin.content.images.addAltFor", { name: media.filename })}
        >
          {t("admin.content.images.addAlt")}
        </button>
      }
    />
  );
}
