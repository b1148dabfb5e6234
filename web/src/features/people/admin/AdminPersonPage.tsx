import { useRef, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { useAdminPersonPage, type AdminPersonDetailsFragment } from "./AdminPersonPage.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { Loading } from "../../../components/Loading.tsx";
import { NotFoundPage } from "../../errors/NotFoundPage.tsx";
import { handleError } from "../../../lib/handleError.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { useChurchDateTime } from "../../../lib/dates.ts";
import { MembershipBadge, RecordStatusBadge, useLoginName } from "./common.tsx";
import { PersonDetailsForm, PersonDetailsSummary } from "./PersonDetails.tsx";
import { ContactDetails } from "./ContactDetails.tsx";
import { PersonPhoto } from "./PersonPhoto.tsx";
import { HouseholdCard } from "./HouseholdCard.tsx";
import { ApproveSignUpPanel } from "./ApproveSignUpPanel.tsx";
import { MergeDialog } from "./MergeDialog.tsx";
import { AnonymiseDialog, ArchiveButton } from "./DangerZone.tsx";
import "../../../styles/staff.css";
import "../../../styles/staff-people.css";

export function AdminPersonPage() {
  const i18n = useI18n();
  const { t } = i18n;
  const { id = "" } = useParams();
  const { data, loading, error } = useAdminPersonPage({
    variables: { id },
    fetchPolicy: "cache-and-network",
  });
  const person = data?.person;
  usePageTitle(person ? person.displayName : t("admin.people.person.title"));
  if (loading && !data) return <Loading />;
  if (error && !person) {
    if (handleError(error, i18n).code === "NOT_FOUND") return <NotFoundPage />;
    return (
      <div className="page">
        <Alert kind="error">{handleError(error, i18n).message}</Alert>
      </div>
    );
  }
  if (!person) return <NotFoundPage />;
  // A new key per person: drafts and dialogs of one person never leak into the next one's page.
  return <PersonView key={person.id} person={person} />;
}

function PersonView({ person }: { person: AdminPersonDetailsFragment }) {
  const { t } = useI18n();
  // Staff's processes; never on an anonymised record (nothing is left to edit, merge or restore).
  const canManage = person.can.manage;
  const { format } = useChurchDateTime();
  const loginName = useLoginName();
  const location = useLocation();
  const navigate = useNavigate();
  // A notice carried over from the page that sent us here (a new person, a merge or approval).
  const arrival = location.state as { created?: boolean; notice?: string } | null;
  const [notice, setNotice] = useState<Notice | null>(() =>
    arrival?.notice
      ? { kind: "success", text: arrival.notice }
      : arrival?.created
        ? { kind: "success", text: t("admin.people.add.done", { name: person.displayName }) }
        : null,
  );
  const anonymise = useRef<{ open(): void }>(null);

  // Approval, linking and merging can leave this record behind (merged into another): go to the kept one.
  function goTo(kept: AdminPersonDetailsFragment, text: string) {
    if (kept.id !== person.id) void navigate(`/admin/people/${kept.id}`, { state: { notice: text } });
    else setNotice({ kind: "success", text });
  }

  return (
    <div className="page person-page">
      <Link to="/admin/people" className="staff-back-link">
        <span aria-hidden="true">←</span> {t("admin.people.back")}
      </Link>
      <header className="person-head">
        <PersonPhoto person={person} canManage={canManage} onNotice={setNotice} />
        <div className="person-head__text">
          <h1>{person.displayName || t("admin.people.unnamed")}</h1>
          {person.preferredName && person.preferredName !== person.firstName && (
            <p className="muted person-head__legal">
              {t("admin.people.fullName", { name: `${person.firstName} ${person.lastName}` })}
            </p>
          )}
          <p className="staff-badges">
            <RecordStatusBadge status={person.recordStatus} />
            <MembershipBadge status={person.membershipStatus} />
            <span className="badge badge--neutral">{t(`admin.people.ageRange.${person.ageGroup}`)}</span>
            <span className={`badge ${person.inDirectory ? "badge--ok" : "badge--muted"}`}>
              {person.inDirectory ? t("admin.people.inDirectory") : t("admin.people.notInDirectory")}
            </span>
          </p>
          {person.household && (
            <p className="person-head__household">
              {t("admin.people.householdLabel")}{" "}
              <Link to={`/admin/households/${person.household.id}`}>{person.household.name}</Link>
              {person.householdRole && (
                <span className="muted"> · {t(`admin.people.role.${person.householdRole}`)}</span>
              )}
            </p>
          )}
        </div>
      </header>

      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}

      {person.anonymizedAt && (
        <Alert kind="info">{t("admin.people.anonymisedOn", { time: format(person.anonymizedAt) })}</Alert>
      )}

      {person.mergedInto && (
        <Alert kind="info">
          {t("admin.people.mergedInto")}{" "}
          <Link to={`/admin/people/${person.mergedInto.id}`}>{person.mergedInto.displayName}</Link>
        </Alert>
      )}
      {person.deletionRequestedAt && (
        <div className="alert alert--warning deletion-banner" role="region" aria-labelledby="deletion-title">
          <h2 id="deletion-title">{t("admin.people.deletion.title")}</h2>
          <p>
            {t("admin.people.deletion.body", {
              name: person.displayName,
              time: format(person.deletionRequestedAt),
            })}
          </p>
          {canManage && (
            <button
              type="button"
              className="button button--danger-solid"
              onClick={() => anonymise.current?.open()}
            >
              {t("admin.people.deletion.anonymiseNow")}
            </button>
          )}
        </div>
      )}

      {person.recordStatus === "PENDING" && canManage && (
        <ApproveSignUpPanel person={person} onApproved={goTo} />
      )}
      {person.recordStatus === "PENDING" && !canManage && (
        <Alert kind="info">{t("admin.people.approve.viewOnly")}</Alert>
      )}

      <div className="person-layout">
        <div className="person-layout__main">
          {canManage ? <PersonDetailsForm person={person} /> : <PersonDetailsSummary person={person} />}
          <ContactDetails person={person} canManage={canManage} />
          {canManage && (
            <section className="staff-danger-zone" aria-labelledby="danger-title">
              <h2 id="danger-title">{t("admin.people.danger.title")}</h2>
              <p>{t("admin.people.anonymise.explain")}</p>
              <AnonymiseDialog
                ref={anonymise}
                person={person}
                onDone={(text) => setNotice({ kind: "success", text })}
              />
            </section>
          )}
        </div>
        <aside className="person-layout__side" aria-label={t("admin.people.side")}>
          <HouseholdCard person={person} canManage={canManage} onNotice={setNotice} />
          <section className="card staff-side-card" aria-labelledby="login-title">
            <h2 id="login-title">{t("admin.people.login.title")}</h2>
            {person.user ? (
              <>
                <p className="staff-side-card__email">{loginName(person.user)}</p>
                <p className="staff-badges">
                  <span className={`badge ${person.user.verified ? "badge--ok" : "badge--warn"}`}>
                    {person.user.verified ? t("admin.users.verified") : t("admin.users.unverified")}
                  </span>
                  {person.user.status === "SUSPENDED" && (
                    <span className="badge badge--danger">{t("admin.users.suspended")}</span>
                  )}
                </p>
                {!person.user.email && <p className="muted small">{t("admin.people.login.emailHidden")}</p>}
              </>
            ) : (
              <p className="muted">{t("admin.people.login.none")}</p>
            )}
          </section>
          <section className="card staff-side-card" aria-labelledby="record-title">
            <h2 id="record-title">{t("admin.people.recordCard")}</h2>
            <dl className="staff-facts">
              <dt>{t("admin.people.created")}</dt>
              <dd>
                <time dateTime={person.created}>{format(person.created)}</time>
              </dd>
              <dt>{t("admin.people.updated")}</dt>
              <dd>
                <time dateTime={person.updated}>{format(person.updated)}</time>
              </dd>
            </dl>
            {canManage && (
              <div className="staff-side-card__actions">
                {person.recordStatus !== "PENDING" && <MergeDialog person={person} onMerged={goTo} />}
                {person.recordStatus !== "PENDING" && <ArchiveButton person={person} onNotice={setNotice} />}
              </div>
            )}
          </section>
        </aside>
      </div>
    </div>
  );
}
