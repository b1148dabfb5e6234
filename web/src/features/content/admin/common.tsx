import type { PageStatus, PostStatus } from "../../../gql/types.ts";
import { useAbilities } from "../../../lib/abilities.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";

/** What the signed-in user may do here (to hide what they cannot; PocketBase's rules decide). */
export function usePermissions() {
  const can = useAbilities();
  return { canEdit: can.editContent, canPublish: can.publishContent, canManageMedia: can.manageMedia };
}

const BADGE: Record<PostStatus | PageStatus, string> = {
  DRAFT: "badge--neutral",
  SCHEDULED: "badge--warn",
  PUBLISHED: "badge--ok",
  ARCHIVED: "badge--muted",
};

export function StatusBadge({ status }: { status: PostStatus | PageStatus }) {
  const { t } = useI18n();
  return <span className={`badge ${BADGE[status]}`}>{t(`admin.content.status.${status}`)}</span>;
}

/** localStorage keys of a document's unsaved copy (and of a conflict's discarded version, + "-conflict"). */
export const draftKey = (kind: "post" | "page", id: string) => `flock.draft.${kind}.${id}`;
