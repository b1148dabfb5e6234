import { Link, useParams } from "react-router";
import { useAppShell } from "../../gql/AppShell.generated.ts";
import { useDirectoryPersonPage } from "./directory.generated.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert } from "../../components/Alert.tsx";
import { Loading } from "../../components/Loading.tsx";
import { handleError } from "../../lib/handleError.ts";
import { usePageTitle } from "../../lib/usePageTitle.ts";
import { NotFoundPage } from "../errors/NotFoundPage.tsx";
import { Avatar } from "./Avatar.tsx";
import { AddressLines } from "./address.tsx";
import { ContactDetails, NotShownBadge } from "./ContactDetails.tsx";
import { ContactButton } from "./ContactDialog.tsx";
import { MembersOnlyNotice } from "./DirectoryPage.tsx";

export function DirectoryPersonPage() {
  const { data: shell } = useAppShell();
  if (!shell?.viewer?.isMember) return <MembersOnlyNotice />;
  return <PersonCard />;
}

function PersonCard() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "" } = useParams();
  const { data: shell } = useAppShell();
  const { data, loading, error } = useDirectoryPersonPage({ variables: { id } });
  const person = data?.person;
  usePageTitle(person?.displayName ?? t("directory.title"));

  if (loading && !data) return <Loading />;
  const failure = error ? handleError(error, i18n) : null;
  // Hidden and missing look the same (never reveal that a hidden person exists).
  if (!person && (!failure || failure.code === "NOT_FOUND")) return <NotFoundPage />;
  if (!person) {
    return (
      <div className="container narrow page">
        <Alert kind="error">{failure?.message}</Alert>
      </div>
    );
  }
  const isSelf = shell?.viewer?.person?.id === person.id;
  const others = person.household?.members.filter((m) => m.id !== person.id) ?? [];
  return (
    <div className="container page person-page">
      <p>
        <Link to="/directory">
          <span aria-hidden="true">←</span> {t("directory.title")}
        </Link>
      </p>
      <article className="card person-card" aria-labelledby="person-name">
        <Avatar name={person.displayName} src={person.photo} size="xl" />
        <div className="person-card__body">
          <h1 id="person-name">{person.displayName}</h1>
          {person.household && person.household.name !== person.displayName && (
            <p className="muted">{t("directory.memberOf", { name: person.household.name })}</p>
          )}
          <ContactDetails person={person} emptyText={t("directory.nothingShared")} markNotShown />
          {person.household?.address && (
            <section className="person-card__address" aria-labelledby="person-address">
              <h2 id="person-address" className="contact-list__label">
                {t("people.address")}
              </h2>
              <AddressLines address={person.household.address} whose={person.household.name} />{" "}
              <NotShownBadge visibility={person.household.address.visibility} />
            </section>
          )}
          <div className="actions person-card__actions">
            {isSelf ? (
              <>
                <span className="muted">{t("directory.thisIsYou")}</span>
                <Link to="/me/privacy" className="button button--ghost">
                  {t("directory.myListing")}
                </Link>
              </>
            ) : (
              <ContactButton
                personId={person.id}
                name={person.displayName}
                addressShown={person.emails.length > 0}
              />
            )}
          </div>
          {!isSelf && (
            <p className="muted small">
              {t(person.emails.length > 0 ? "directory.contact.noteShared" : "directory.contact.note")}
            </p>
          )}
        </div>
      </article>
      {person.household && others.length > 0 && (
        <section className="person-page__household" aria-labelledby="person-household">
          <h2 id="person-household">{t("directory.householdOf", { name: person.household.name })}</h2>
          <ul className="member-chips">
            {others.map((member) => (
              <li key={member.id}>
                <Link to={`/directory/${member.id}`} className="member-chip">
                  <Avatar name={member.displayName} src={member.thumb} size="sm" />
                  <span>{member.displayName}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
