import type { PhoneKind, Visibility } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatMonthDay } from "../../i18n/format.ts";
import { Icon } from "./Icon.tsx";
import { EmailAddress } from "../../components/EmailAddress.tsx";

/** What ContactDetails shows (the directory's fragment, or the privacy page's preview of one). */
export interface SharedContact {
  emails: ReadonlyArray<{ id: string; email: string; visibility?: Visibility }>;
  phones: ReadonlyArray<{
    id: string;
    number: string;
    formatted: string;
    kind?: PhoneKind | null;
    visibility?: Visibility;
  }>;
  birthday?: { month: number; day: number; visibility?: Visibility } | null;
}

/**
 * On a detail that other members do not see. Members read only "members" rows of other households,
 * so the directory shows them anything else only as their own household's (or as staff): without
 * this mark it would suggest that everyone sees it.
 */
export function NotShownBadge({ visibility }: { visibility: Visibility | null | undefined }) {
  const { t } = useI18n();
  if (!visibility || visibility === "MEMBERS") return null;
  return <span className="badge badge--not-shown">{t("directory.notShown")}</span>;
}

/**
 * The contact details a person shared with this viewer, as links that dial or write. Nothing else is
 * known here: what the server did not return, the person did not share. `markNotShown` badges the
 * rows other members cannot see (the directory; the privacy preview shows chosen, unsaved visibilities).
 */
export function ContactDetails({
  person,
  emptyText,
  markNotShown = false,
}: {
  person: SharedContact;
  emptyText?: string;
  markNotShown?: boolean;
}) {
  const { t, locale } = useI18n();
  const { phones, emails, birthday } = person;
  const mark = (visibility: Visibility | undefined) =>
    markNotShown ? <NotShownBadge visibility={visibility} /> : null;
  if (!phones.length && !emails.length && !birthday)
    return emptyText ? <p className="muted small">{emptyText}</p> : null;
  return (
    <ul className="contact-list">
      {phones.map((phone) => (
        <li key={phone.id}>
          <Icon name="phone" />
          <span className="visually-hidden">{t("people.phone")}: </span>
          <a href={`tel:${phone.number}`}>{phone.formatted}</a>
          {phone.kind && <span className="contact-list__kind">{t(`phoneKind.${phone.kind}`)}</span>}
          {mark(phone.visibility)}
        </li>
      ))}
      {emails.map((email) => (
        <li key={email.id}>
          <Icon name="mail" />
          <span className="visually-hidden">{t("people.email")}: </span>
          <a href={`mailto:${email.email}`} className="contact-list__email">
            <EmailAddress email={email.email} />
          </a>
          {mark(email.visibility)}
        </li>
      ))}
      {birthday && (
        <li>
          <Icon name="cake" />
          <span className="visually-hidden">{t("people.birthday")}: </span>
          <span>{formatMonthDay(birthday.month, birthday.day, locale)}</span>
          {mark(birthday.visibility)}
        </li>
      )}
    </ul>
  );
}
