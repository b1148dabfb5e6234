import { useId, useState } from "react";
import { useApolloClient } from "@apollo/client/react";
import { AdminPersonDetailsFragmentDoc, AdminSetPersonPhotoDocument, useAdminSetPersonPhoto, type AdminPersonDetailsFragment, type AdminSetPersonPhotoMutation } from "../../../gql/generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { uploadWithProgress } from "../../../lib/upload.ts";
import { LIMITS } from "../../../../../gateway/src/validation/limits.ts";
import { Avatar } from "./common.tsx";
import type { Notice } from "./AdminPersonPage.tsx";

/** The person's photo with upload (progress shown) and removal for staff with people.manage. */
export function PersonPhoto({ person, canManage, onNotice }: { person: AdminPersonDetailsFragment; canManage: boolean; onNotice(notice: Notice): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const client = useApolloClient();
  const progressId = useId();
  const [percent, setPercent] = useState<number | null>(null);
  const [removePhoto, { loading: removing }] = useAdminSetPersonPhoto();

  async function upload(file: File) {
    // Checked here first so nobody waits for a 10 MB upload to be refused.
    if (!(LIMITS.imageMimeTypes as readonly string[]).includes(file.type)) return onNotice({ kind: "error", text: t("error.UNSUPPORTED_FILE_TYPE") });
    if (file.size > LIMITS.imageMaxBytes) return onNotice({ kind: "error", text: t("error.PAYLOAD_TOO_LARGE") });
    onNotice(null);
    setPercent(0);
    try {
      const data = await uploadWithProgress<AdminSetPersonPhotoMutation>(AdminSetPersonPhotoDocument, { id: person.id }, "file", file, setPercent);
      // The upload went around Apollo: put the answer into its cache so every view of the person updates.
      client.cache.writeFragment({ fragment: AdminPersonDetailsFragmentDoc, fragmentName: "AdminPersonDetails", data: data.setPersonPhoto });
      onNotice({ kind: "success", text: t("admin.people.photo.saved") });
    } catch (caught) {
      onNotice({ kind: "error", text: handleError(caught, i18n).message });
    } finally {
      setPercent(null);
    }
  }

  return (
    <div className="person-photo">
      <Avatar name={person.displayName} url={person.photoUrl} size="large" />
      {percent !== null && (
        <div className="progress">
          <progress id={progressId} max={100} value={percent} aria-label={t("admin.people.photo.uploading", { percent })} />
        </div>
      )}
      {canManage && percent === null && (
        <div className="person-photo__actions">
          <label className="button button--ghost button--small file-button">
            {person.photoUrl ? t("admin.people.photo.replace") : t("admin.people.photo.upload")}
            <input
              type="file"
              accept={LIMITS.imageMimeTypes.join(",")}
              className="visually-hidden"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = "";
                if (file) void upload(file);
              }}
            />
          </label>
          {person.photoUrl && (
            <button
              type="button"
              className="link-button small"
              disabled={removing}
              onClick={() => {
                if (!window.confirm(t("admin.people.photo.confirmRemove"))) return;
                removePhoto({ variables: { id: person.id, file: null } })
                  .then(() => onNotice({ kind: "success", text: t("admin.people.photo.removed") }))
                  .catch((caught: unknown) => onNotice({ kind: "error", text: handleError(caught, i18n).message }));
              }}
            >
              {t("admin.people.photo.remove")}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
