import type { PhoneKind } from "../../gql/generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { formatMonthDay } from "../../i18n/format.ts";
import { Icon } from "./Icon.tsx";

/** What ContactDetails shows (the directory's fragment, or the privacy page's preview of one). */
export interface SharedContact {
  emails: ReadonlyArray<{ id: string; email: string }>;
  phones: ReadonlyArray<{ id: string; number: string; formatted: string; kind?: PhoneKind | null }>;
  birthday?: { month: number; day: number } | null;
}

/**
 * The contact details a person shared with this viewer, as links that dial or write. Nothing else is
 * known here: what the server did not return, the person did not share.
 */
export function ContactDetails({ person, emptyText }: { person: SharedContact; emptyText?: string }) {
  const { t, locale } = useI18n();
  const { phones, emails, birthday } = person;
  if (!phones.length && !emails.length && !birthday) return emptyText ? <p className="muted small">{emptyText}</p> : null;
  return (
    <ul className="contact-list">
      {phones.map((phone) => (
        <li key={phone.id}>
          <Icon name="phone" />
          <span className="visually-hidden">{t("people.phone")}: </span>
          <a href={`tel:${phone.number}`}>{phone.formatted}</a>
          {phone.kind && <span className="contact-list__kind">{t(`phoneKind.${phone.kind}`)}</span>}
        </li>
      ))}
      {emails.map((email) => (
        <li key={email.id}>
          <Icon name="mail" />
          <span className="visually-hidden">{t("people.email")}: </span>
          <a href={`mailto:${email.email}`} className="contact-list__email">
            {email.email}
          </a>
        </li>
      ))}
      {birthday && (
        <li>
          <Icon name="cake" />
          <span className="visually-hidden">{t("people.birthday")}: </span>
          <span>{formatMonthDay(birthday.month, birthday.day, locale)}</span>
        </li>
      )}
    </ul>
  );
}
