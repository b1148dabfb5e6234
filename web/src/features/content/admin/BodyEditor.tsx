import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useBodyImageRow } from "./BodyImages.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { AltTextDialog, type AltTextTarget } from "./AltTextDialog.tsx";
import { mediaIdsIn, uploadMedia } from "../../../lib/media.ts";
import { WordCount } from "./Canvas.tsx";

// The editor (Milkdown) is only ever loaded here, lazily: it must never be part of the public first
// load (`npm run size` checks).
const MarkdownEditor = lazy(() => import("../../../editor/MarkdownEditor.tsx"));

interface BodyEditorProps {
  /** Remounts the editor when it changes (another document, or a text restored / taken from a conflict). */
  editorKey: string;
  initialMarkdown: string;
  onChange(markdown: string): void;
  label: string;
  readOnly: boolean;
  error?: string | undefined;
  errorHint?: ReactNode;
  /** The current Markdown, for the list of images and their alt text. */
  markdown: string;
}

/**
 * The body: the Markdown editor, image uploads into the media library (with a prompt for alt text
 * after each), and the list of images the text uses with their alt text.
 */
export function BodyEditor({
  editorKey,
  initialMarkdown,
  onChange,
  label,
  readOnly,
  error,
  errorHint,
  markdown,
}: BodyEditorProps) {
  const i18n = useI18n();
  const { t } = i18n;
  const [altQueue, setAltQueue] = useState<AltTextTarget[]>([]);
  // Milkdown writes Markdown its own way (list markers, escapes…). What it reports for an untouched
  // document is the server's text, not a change: otherwise merely opening a post would save it and
  // raise its revision (and a second tab would see a conflict for nothing).
  const normalized = useRef<string | null>(null);
  const latest = useRef({ onChange, initialMarkdown });
  useEffect(() => {
    latest.current = { onChange, initialMarkdown };
  });

  const handleChange = useCallback((next: string) => {
    latest.current.onChange(next === normalized.current ? latest.current.initialMarkdown : next);
  }, []);

  const uploadImage = useCallback(
    async (file: File, onProgress: (percent: number) => void) => {
      const media = await uploadMedia(file, onProgress, i18n);
      setAltQueue((queue) => [
        ...queue,
        { id: media.id, alt: media.alt, filename: media.filename, thumbnail: media.thumbnail },
      ]);
      // The path, not the absolute URL: the Markdown must survive a change of domain.
      return media.path;
    },
    [i18n],
  );

  const ids = mediaIdsIn(markdown);

  return (
    <div className={`field body-field${error ? " field--invalid" : ""}`}>
      <span className="body-field__label" id={`${editorKey}-label`}>
        {label}
      </span>
      <Suspense fallback={<Loading />}>
        <MarkdownEditor
          key={editorKey}
          label={label}
          initialMarkdown={initialMarkdown}
          readOnly={readOnly}
          onChange={handleChange}
          uploadImage={uploadImage}
          onReady={(api) => {
            normalized.current = api.getMarkdown();
          }}
        />
      </Suspense>
      <WordCount markdown={markdown} />
      {error && (
        <p className="field__error" role="alert">
          {error} {errorHint}
        </p>
      )}
      {ids.length > 0 && (
        <section className="body-images" aria-labelledby={`${editorKey}-images`}>
          <h3 id={`${editorKey}-images`} className="body-images__title">
            {t("admin.content.images.title")}
          </h3>
          <ul>
            {ids.map((id) => (
              <BodyImageRow
                key={id}
                id={id}
                onEditAlt={(target) => setAltQueue((queue) => [...queue, target])}
              />
            ))}
          </ul>
        </section>
      )}
      <AltTextDialog target={altQueue[0] ?? null} onDone={() => setAltQueue((queue) => queue.slice(1))} />
    </div>
  );
}

function BodyImageRow({ id, onEditAlt }: { id: string; onEditAlt(target: AltTextTarget): void }) {
  const { t } = useI18n();
  const { data } = useBodyImageRow({ variables: { id } });
  const media = data?.media;
  if (!media || media.kind !== "IMAGE") return null;
  const missing = !media.alt.trim();
  return (
    <li className="body-images__item" data-media-id={media.id}>
      <img src={media.thumbnail} alt="" width={64} height={48} />
      <span className="body-images__text">
        <span className="block small">{media.filename}</span>
        {missing ? (
          <span className="badge badge--warn">{t("admin.content.images.needsAlt")}</span>
        ) : (
          <span className="block muted small">{media.alt}</span>
        )}
      </span>
      <button
        type="button"
        className="button button--ghost button--small"
        aria-label={t(missing ? "admin.content.images.addAltFor" : "admin.content.images.editAltFor", {
          name: media.filename,
        })}
        onClick={() =>
          onEditAlt({ id: media.id, alt: media.alt, filename: media.filename, thumbnail: media.thumbnail })
        }
      >
        {missing ? t("admin.content.images.addAlt") : t("admin.content.images.editAlt")}
      </button>
    </li>
  );
}

/** "Add alt text in the media library" link shown with image_alt_missing. */
export function MediaLibraryLink() {
  const { t } = useI18n();
  return <Link to="/admin/media">{t("admin.content.images.openLibrary")}</Link>;
}
