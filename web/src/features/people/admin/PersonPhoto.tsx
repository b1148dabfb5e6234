import { useApolloClient } from "@apollo/client/react";
import {
  AdminPersonDetailsFragmentDoc,
  AdminSetPersonPhotoDocument,
  useAdminSetPersonPhoto,
  type AdminPersonDetailsFragment,
  type AdminSetPersonPhotoMutation,
} from "./AdminPersonPage.generated.ts";
import { PhotoField } from "../../../components/PhotoField.tsx";
import { uploadWithProgress } from "../../../lib/upload.ts";
import { Avatar } from "./common.tsx";
import type { Notice } from "../../../components/Alert.tsx";

/** The person's photo with upload (progress shown) and removal for staff with people.manage. */
export function PersonPhoto({
  person,
  canManage,
  onNotice,
}: {
  person: AdminPersonDetailsFragment;
  canManage: boolean;
  onNotice(notice: Notice | null): void;
}) {
  const client = useApolloClient();
  const [setPhoto] = useAdminSetPersonPhoto();
  return (
    <PhotoField
      src={person.photoUrl}
      renderPhoto={(src) => <Avatar name={person.displayName} url={src} size="large" />}
      canEdit={canManage}
      layout="stacked"
      className="person-photo"
      onNotice={onNotice}
      onUpload={async (file, onProgress) => {
        const data = await uploadWithProgress<AdminSetPersonPhotoMutation>(
          AdminSetPersonPhotoDocument,
          { id: person.id },
          "file",
          file,
          onProgress,
        );
        // The upload went around Apollo: put the answer into its cache so every view of the person updates.
        client.cache.writeFragment({
          fragment: AdminPersonDetailsFragmentDoc,
          fragmentName: "AdminPersonDetails",
          data: data.setPersonPhoto,
        });
      }}
      onRemove={() => setPhoto({ variables: { id: person.id, file: null } })}
    />
  );
}
