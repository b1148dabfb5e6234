import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import {
  useAdminSermonLibrary,
  useCreateSermonSeries,
  useCreateSpeaker,
  useDeleteSermonSeries,
  useDeleteSpeaker,
  useUpdateSermonSeries,
  useUpdateSpeaker,
  SetSermonSeriesArtworkDocument,
  SetSpeakerPhotoDocument,
} from "./AdminSermons.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { TextAreaField, TextField } from "../../../components/Field.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { uploadWithProgress } from "../../../lib/upload.ts";
import { IMAGE_TYPES } from "../../../lib/media.ts";
import "./sermons-admin.css";
import { LIMITS } from "@flock/shared/limits";

interface Item {
  id: string;
  title: string;
  text: string;
  imageUrl: string | null | undefined;
}

/** One editable series or speaker: name, text and image (uploaded on its own). */
function LibraryItem({
  item,
  kind,
  onSave,
  onDelete,
  onImage,
}: {
  item: Item;
  kind: "series" | "speaker";
  onSave(title: string, text: string): Promise<void>;
  onDelete(): Promise<void>;
  onImage(file: File, onProgress: (p: number) => void): Promise<void>;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [title, setTitle] = useState(item.title);
  const [text, setText] = useState(item.text);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<Notice | null>(null);
  const run = async (work: () => Promise<void>, done: string) => {
    setMessage(null);
    try {
      await work();
      setMessage({ kind: "success", text: done });
    } catch (caught) {
      setMessage({ kind: "error", text: handleError(caught, i18n).message });
    }
  };
  return (
    <li className="card library-item">
      {item.imageUrl ? (
        <img
          src={item.imageUrl}
          alt=""
          width={96}
          height={96}
          className={kind === "speaker" ? "library-item__img library-item__img--round" : "library-item__img"}
        />
      ) : (
        <span className="library-item__img library-item__img--blank" aria-hidden="true" />
      )}
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          void run(() => onSave(title, text), t("admin.sermons.saved"));
        }}
      >
        <TextField
          label={
            kind === "series"
              ? t("admin.sermons.library.seriesTitle")
              : t("admin.sermons.library.speakerName")
          }
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          required
          maxLength={LIMITS.nameMax}
        />
        <TextAreaField
          label={kind === "series" ? t("admin.sermons.library.description") : t("admin.sermons.library.bio")}
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={3}
          maxLength={kind === "series" ? LIMITS.seriesDescriptionMax : LIMITS.speakerBioMax}
        />
        <div className="field">
          <label htmlFor={`img-${item.id}`}>
            {kind === "series" ? t("admin.sermons.library.artwork") : t("admin.sermons.library.photo")}
          </label>
          <input
            id={`img-${item.id}`}
            type="file"
            accept={IMAGE_TYPES.join(",")}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (!file) return;
              setProgress(0);
              void run(() => onImage(file, setProgress), t("admin.sermons.library.imageSaved")).finally(() =>
                setProgress(null),
              );
            }}
          />
          <p className="field__hint">
            {kind === "series"
              ? t("admin.sermons.library.artworkHint")
              : t("admin.sermons.library.photoHint")}
          </p>
          {progress !== null && (
            <progress max={100} value={progress} aria-label={t("admin.sermons.library.uploading")} />
          )}
        </div>
        {message && <Alert kind={message.kind}>{message.text}</Alert>}
        <p className="actions">
          <button type="submit" className="button button--small">
            {t("admin.sermons.save")}
          </button>
          <button
            type="button"
            className="button button--ghost button--danger button--small"
            onClick={() => {
              if (window.confirm(t("admin.sermons.confirmDelete", { title: item.title })))
                void run(onDelete, t("admin.sermons.library.deleted"));
            }}
          >
            {t("admin.sermons.delete")}
          </button>
        </p>
      </form>
    </li>
  );
}

/** /admin/sermons/library: series (with artwork) and speakers (with photos). */
export function AdminSermonLibraryPage() {
  const i18n = useI18n();
  const { t } = i18n;
  usePageTitle(t("admin.sermons.library"));
  const { data, loading, error, refetch } = useAdminSermonLibrary({ fetchPolicy: "cache-and-network" });
  const [createSeries] = useCreateSermonSeries();
  const [updateSeries] = useUpdateSermonSeries();
  const [deleteSeries] = useDeleteSermonSeries();
  const [createSpeaker] = useCreateSpeaker();
  const [updateSpeaker] = useUpdateSpeaker();
  const [deleteSpeaker] = useDeleteSpeaker();
  const [newSeries, setNewSeries] = useState("");
  const [newSpeaker, setNewSpeaker] = useState("");
  const [notice, setNotice] = useState<string | null>(null);

  async function add(kind: "series" | "speaker") {
    setNotice(null);
    try {
      if (kind === "series") {
        await createSeries({ variables: { input: { title: newSeries } } });
        setNewSeries("");
      } else {
        await createSpeaker({ variables: { input: { name: newSpeaker } } });
        setNewSpeaker("");
      }
      await refetch();
    } catch (caught) {
      setNotice(handleError(caught, i18n).message);
    }
  }

  if (loading && !data) return <Loading />;
  if (error) return <Alert kind="error">{handleError(error, i18n).message}</Alert>;
  return (
    <div>
      <p className="small">
        <Link to="/admin/sermons">← {t("admin.sermons.title")}</Link>
      </p>
      <h1>{t("admin.sermons.library")}</h1>
      {notice && <Alert kind="error">{notice}</Alert>}
      <section aria-labelledby="library-series">
        <h2 id="library-series">{t("admin.sermons.library.series")}</h2>
        <form className="toolbar" onSubmit={(e) => (e.preventDefault(), void add("series"))}>
          <TextField
            label={t("admin.sermons.library.newSeries")}
            value={newSeries}
            onChange={(e) => setNewSeries(e.target.value)}
            required
            maxLength={LIMITS.nameMax}
          />
          <button type="submit" className="button">
            {t("admin.sermons.library.add")}
          </button>
        </form>
        <ul className="library-list">
          {data?.sermonSeriesList.map((s) => (
            <LibraryItem
              key={s.id}
              kind="series"
              item={{ id: s.id, title: s.title, text: s.description, imageUrl: s.artworkUrl }}
              onSave={async (title, description) =>
                void (await updateSeries({ variables: { id: s.id, input: { title, description } } }))
              }
              onDelete={async () => void (await deleteSeries({ variables: { id: s.id } }), await refetch())}
              onImage={async (file, progress) =>
                void (
                  await uploadWithProgress(
                    SetSermonSeriesArtworkDocument,
                    { id: s.id },
                    "file",
                    file,
                    progress,
                  ),
                  await refetch()
                )
              }
            />
          ))}
        </ul>
      </section>
      <section aria-labelledby="library-speakers">
        <h2 id="library-speakers">{t("admin.sermons.library.speakers")}</h2>
        <form className="toolbar" onSubmit={(e) => (e.preventDefault(), void add("speaker"))}>
          <TextField
            label={t("admin.sermons.library.newSpeaker")}
            value={newSpeaker}
            onChange={(e) => setNewSpeaker(e.target.value)}
            required
            maxLength={LIMITS.nameMax}
          />
          <button type="submit" className="button">
            {t("admin.sermons.library.add")}
          </button>
        </form>
        <ul className="library-list">
          {data?.speakers.map((s) => (
            <LibraryItem
              key={s.id}
              kind="speaker"
              item={{ id: s.id, title: s.name, text: s.bio, imageUrl: s.photoUrl }}
              onSave={async (name, bio) =>
                void (await updateSpeaker({ variables: { id: s.id, input: { name, bio } } }))
              }
              onDelete={async () => void (await deleteSpeaker({ variables: { id: s.id } }), await refetch())}
              onImage={async (file, progress) =>
                void (
                  await uploadWithProgress(SetSpeakerPhotoDocument, { id: s.id }, "file", file, progress),
                  await refetch()
                )
              }
            />
          ))}
        </ul>
      </section>
    </div>
  );
}
