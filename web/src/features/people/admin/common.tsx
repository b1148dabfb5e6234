import { useAppShell } from "../../../gql/AppShell.generated.ts";
import type {
  AgeGroup,
  HouseholdRole,
  MatchReason,
  MembershipStatus,
  PhoneKind,
  RecordStatus,
  Visibility,
} from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { todayIn } from "../../../i18n/format.ts";

export const MEMBERSHIP_STATUSES: MembershipStatus[] = ["VISITOR", "REGULAR_ATTENDER", "MEMBER", "INACTIVE"];
export const RECORD_STATUSES: RecordStatus[] = ["PENDING", "ACTIVE", "ARCHIVED"];
export const AGE_GROUPS: AgeGroup[] = ["ADULT", "YOUTH", "CHILD"];
export const HOUSEHOLD_ROLES: HouseholdRole[] = ["HEAD", "SPOUSE", "CHILD", "OTHER"];
export const VISIBILITIES: Visibility[] = ["PRIVATE", "LEADERS", "GROUPS", "MEMBERS"];
export const PHONE_KINDS: PhoneKind[] = ["MOBILE", "HOME", "WORK", "OTHER"];

const RECORD_BADGE: Record<RecordStatus, string> = {
  PENDING: "badge--warn",
  ACTIVE: "badge--ok",
  ARCHIVED: "badge--muted",
};

export function RecordStatusBadge({ status }: { status: RecordStatus }) {
  const { t } = useI18n();
  return <span className={`badge ${RECORD_BADGE[status]}`}>{t(`admin.people.record.${status}`)}</span>;
}

export function MembershipBadge({ status }: { status: MembershipStatus | null | undefined }) {
  const { t } = useI18n();
  if (!status) return null;
  return <span className="badge badge--neutral">{t(`admin.people.membership.${status}`)}</span>;
}

export function VisibilityBadge({ visibility }: { visibility: Visibility }) {
  const { t } = useI18n();
  return (
    <span className={`badge badge--visibility badge--visibility-${visibility.toLowerCase()}`}>
      <span className="visually-hidden">{t("admin.people.visibleTo")} </span>
      {t(`admin.people.visibility.${visibility}`)}
    </span>
  );
}

const REASON_ICON: Record<MatchReason, string> = { EMAIL: "@", PHONE: "☎", NAME: "Aa" };

export function MatchReasonBadge({ reason }: { reason: MatchReason }) {
  const { t } = useI18n();
  return (
    <span className="badge badge--info match-reason">
      <span aria-hidden="true">{REASON_ICON[reason]} </span>
      {t(`admin.people.match.${reason}`)}
    </span>
  );
}

/** The person's photo, or their initials on a tinted disc (decorative: the name is always next to it). */
export function Avatar({
  name,
  url,
  size = "small",
}: {
  name: string;
  url: string | null | undefined;
  size?: "small" | "large";
}) {
  if (url)
    return (
      <img
        src={url}
        alt=""
        className={`staff-avatar staff-avatar--${size}`}
        loading="lazy"
        width={size === "large" ? 160 : 40}
        height={size === "large" ? 160 : 40}
      />
    );
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join("");
  return (
    <span className={`staff-avatar staff-avatar--${size} staff-avatar--initials`} aria-hidden="true">
      {initials}
    </span>
  );
}

/**
 * A person's login as staff see it: its email or, for staff who may not manage accounts (PocketBase
 * hides account emails from them, so it reads ""), just that there is one.
 */
export function useLoginName() {
  const { t } = useI18n();
  return (user: { email: string } | null | undefined) =>
    user ? user.email || t("admin.people.login.has") : t("admin.people.login.none");
}

/** Today in the church's time zone as YYYY-MM-DD (export file names, the latest allowed birth date). */
export function useChurchToday(): string {
  const { data } = useAppShell();
  return todayIn(data?.settings.timezone ?? "UTC");
}

/** An optional text: trimmed, and null when empty (so the server clears it). */
export const optional = (value: string) => (value.trim() ? value.trim() : null);
