import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import {
  forgetKeptVersion,
  type KeptVersion,
  type LocalCopy,
  type SaveStatus,
  type TheirVersion,
} from "./autosave.ts";
import { lineDiff } from "./lineDiff.ts";
import { useChurchDateTime } from "../../lib/dates.ts";

/** "Saving…", "Saved", "Offline – changes kept on this device"… announced politely. */
export function SaveStatusLine({ status }: { status: SaveStatus }) {
  const { t } = useI18n();
  let text: string;
  let tone = "";
  switch (status.kind) {
    case "idle":
      text = t("admin.content.save.idle");
      break;
    case "pending":
    case "saving":
      text = t("admin.content.save.saving");
      break;
    case "saved":
      text = t("admin.content.save.saved");
      tone = "ok";
      break;
    case "offline":
      text = t("admin.content.save.offline");
      tone = "warn";
      break;
    case "retrying":
      text = t("admin.content.save.retrying");
      tone = "warn";
      break;
    case "conflict":
      text = t("admin.content.save.conflict");
      tone = "danger";
      break;
    case "invalid":
      text = Object.keys(status.error.fieldErrors).length
        ? t("admin.content.save.invalid")
        : t("admin.content.save.failed", { message: status.error.message });
      tone = "danger";
      break;
    case "failed":
      text = t("admin.content.save.failed", { message: status.error.message });
      tone = "danger";
      break;
  }
  return (
    <p className={`save-status${tone ? ` save-status--${tone}` : ""}`} role="status" aria-live="polite">
      <span className="save-status__dot" aria-hidden="true" />
      {text}
    </p>
  );
}

/** Changes kept on this device from an earlier visit: restore or discard (nothing is lost silently). */
export function RestoreOffer<T extends { title: string; body: string }>({
  copy,
  current,
  onRestore,
  onDiscard,
}: {
  copy: LocalCopy<T>;
  /** What the editor shows now (the server's text), to compare with. */
  current: { title: string; body: string };
  onRestore(): void;
  onDiscard(): void;
}) {
  const { t } = useI18n();
  const { format } = useChurchDateTime();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const diff = lineDiff(`${current.title}\n\n${current.body}`, `${copy.input.title}\n\n${copy.input.body}`);
  return (
    <section className="card restore-offer" aria-labelledby="restore-title">
      <h2 id="restore-title" ref={heading} tabIndex={-1}>
        {t("admin.content.restore.title")}
      </h2>
      <p>{t("admin.content.restore.body", { time: copy.at ? format(copy.at) : "" })}</p>
      <details className="restore-offer__diff">
        <summary>{t("admin.content.restore.compare")}</summary>
        <p className="small muted">{t("admin.content.restore.legend")}</p>
        <pre>
          {diff.map((line, index) =>
            line.kind === "same" ? (
              <span key={index}>
                {line.text}
                {"\n"}
              </span>
            ) : line.kind === "added" ? (
              <ins key={index}>
                {line.text}
                {"\n"}
              </ins>
            ) : (
              <del key={index}>
                {line.text}
                {"\n"}
              </del>
            ),
          )}
        </pre>
      </details>
      <div className="actions">
        <button type="button" className="button" onClick={onRestore}>
          {t("admin.content.restore.restore")}
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            if (window.confirm(t("admin.content.restore.confirmDiscard"))) onDiscard();
          }}
        >
          {t("admin.content.restore.discard")}
        </button>
      </div>
    </section>
  );
}

/** Someone saved a newer version: both texts side by side; the editor chooses (autosave waits). */
export function ConflictPanel({
  mine,
  theirs,
  onKeepMine,
  onKeepTheirs,
  busy,
}: {
  mine: { title: string; body: string };
  theirs: TheirVersion;
  onKeepMine(): void;
  onKeepTheirs(): void;
  busy: boolean;
}) {
  const { t } = useI18n();
  const { format } = useChurchDateTime();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card conflict" aria-labelledby="conflict-title">
      <h2 id="conflict-title" ref={heading} tabIndex={-1}>
        {t("admin.content.conflict.title")}
      </h2>
      <p role="alert">{t("admin.content.conflict.body")}</p>
      <div className="conflict__versions">
        <VersionColumn heading={t("admin.content.conflict.mine")} title={mine.title} body={mine.body} />
        <VersionColumn
          heading={t("admin.content.conflict.theirs", { time: theirs.updated ? format(theirs.updated) : "" })}
          title={theirs.title}
          body={theirs.body}
        />
      </div>
      <div className="actions">
        <button type="button" className="button" disabled={busy} onClick={onKeepMine}>
          {t("admin.content.conflict.keepMine")}
        </button>
        <button type="button" className="button button--ghost" disabled={busy} onClick={onKeepTheirs}>
          {t("admin.content.conflict.keepTheirs")}
        </button>
      </div>
      <p className="muted small">{t("admin.content.conflict.hint")}</p>
    </section>
  );
}

function VersionColumn({ heading, title, body }: { heading: string; title: string; body: string }) {
  const id = useId();
  return (
    <div className="conflict__version" role="group" aria-labelledby={id}>
      <h3 id={id}>{heading}</h3>
      <p className="conflict__title">{title}</p>
      {/* Focusable so keyboard users can scroll a long text (WCAG 2.1.1). */}
      <pre className="conflict__text" tabIndex={0} aria-label={heading}>
        {body}
      </pre>
    </div>
  );
}

/** The side of a conflict that was not kept, still on this device: copy it, look at it, or forget it. */
export function KeptVersionNotice({
  storageKey,
  version,
  onForget,
}: {
  storageKey: string;
  version: KeptVersion | null;
  onForget(): void;
}) {
  const { t } = useI18n();
  const { format } = useChurchDateTime();
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  if (!version) return null;
  const text = `${version.title}\n\n${version.body}`;
  const mine = version.whose === "mine";
  return (
    <div className="alert alert--info kept">
      <p>
        {mine
          ? t("admin.content.kept.mine", { time: format(version.at) })
          : t("admin.content.kept.theirs", { time: format(version.at) })}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button--small"
          onClick={() =>
            navigator.clipboard
              .writeText(text)
              .then(() => setCopied("yes"))
              .catch(() => {
                setCopied("no");
                setShown(true);
              })
          }
        >
          {mine ? t("admin.content.kept.copyMine") : t("admin.content.kept.copyTheirs")}
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          aria-expanded={shown}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? t("admin.content.kept.hide") : t("admin.content.kept.show")}
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => {
            if (!window.confirm(t("admin.content.kept.confirmForget"))) return;
            forgetKeptVersion(storageKey);
            onForget();
          }}
        >
          {t("admin.content.kept.forget")}
        </button>
        <span role="status">
          {copied === "yes"
            ? t("admin.content.kept.copied")
            : copied === "no"
              ? t("admin.content.kept.copyFailed")
              : ""}
        </span>
      </div>
      {shown && (
        <pre
          className="conflict__text kept__text"
          tabIndex={0}
          aria-label={mine ? t("admin.content.conflict.mine") : t("admin.content.conflict.theirsShort")}
        >
          {text}
        </pre>
      )}
    </div>
  );
}

/** Back link, heading, save status and the preview button: the same for pages and posts. */
export function EditorTop({
  status,
  heading,
  backTo,
  backLabel,
  badge,
  children,
}: {
  status: SaveStatus;
  heading: string;
  backTo: string;
  backLabel: string;
  badge: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="editor-top">
      <Link to={backTo} className="editor-top__back">
        ← {backLabel}
      </Link>
      <div className="editor-top__row">
        <h1>
          {heading} {badge}
        </h1>
        <div className="editor-top__tools">
          <SaveStatusLine status={status} />
          {children}
        </div>
      </div>
    </div>
  );
}
