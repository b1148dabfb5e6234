import { useState, type FormEvent } from "react";
import {
  useCheckinAddPickupPerson,
  useCheckinMyHousehold,
  useCheckinRemovePickupPerson,
  useCheckinSetCareNotes,
  type CheckinMyHouseholdQuery,
} from "./checkin.generated.ts";
import type { PickupStatus } from "../../gql/types.ts";
import { useI18n } from "../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../components/Alert.tsx";
import { SelectField, TextAreaField, TextField } from "../../components/Field.tsx";
import { handleError, type UiError } from "../../lib/handleError.ts";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import { HouseholdQr } from "./HouseholdQr.tsx";

type Child = NonNullable<CheckinMyHouseholdQuery["myHouseholdCheckin"]>["children"][number];

/**
 * On /me/checkins, for a household's adults: each child's allergies and medical notes (copied to the
 * room when they are checked in) and the pickup list (trusted adults, and people the room is warned about).
 */
export function HouseholdCheckin() {
  const { t } = useI18n();
  const { data, refetch } = useCheckinMyHousehold({ fetchPolicy: "cache-and-network" });
  const household = data?.myHouseholdCheckin;
  if (!household) return null;
  return (
    <>
      <section aria-labelledby="qr-heading" className="checkin-mine__section checkin-mine__qr">
        <h2 id="qr-heading">{t("checkin.mine.qr")}</h2>
        <HouseholdQr text={household.qrText} label={t("checkin.mine.qr")} />
        <p className="muted">{t("checkin.mine.qrHint")}</p>
      </section>
      {household.children.length > 0 && (
        <section aria-labelledby="care-heading" className="checkin-mine__section">
          <h2 id="care-heading">{t("checkin.mine.care")}</h2>
          <p className="muted">{t("checkin.mine.careHint")}</p>
          {household.children.map((child) => (
            <CareForm key={child.personId} child={child} />
          ))}
        </section>
      )}
      <section aria-labelledby="pickup-heading" className="checkin-mine__section">
        <h2 id="pickup-heading">{t("checkin.mine.pickups")}</h2>
        <p className="muted">{t("checkin.mine.pickupsHint")}</p>
        <PickupList pickups={household.pickups} onChange={() => void refetch()} />
      </section>
    </>
  );
}

function CareForm({ child }: { child: Child }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState({ allergies: child.allergies, medicalNotes: child.medicalNotes });
  const [save, { loading }] = useCheckinSetCareNotes();
  const [problem, setProblem] = useState<UiError | null>(null);
  const [saved, setSaved] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setSaved(false);
    try {
      await save({ variables: { personId: child.personId, ...draft } });
      setSaved(true);
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  return (
    <form className="card form" onSubmit={(e) => void submit(e)} noValidate>
      <h3>{child.name}</h3>
      <TextField
        label={t("checkin.family.allergies")}
        value={draft.allergies}
        maxLength={CHECKIN_LIMITS.allergiesMax}
        error={problem?.fieldErrors.allergies}
        onChange={(e) => setDraft({ ...draft, allergies: e.target.value })}
      />
      <TextAreaField
        label={t("checkin.mine.medicalNotes")}
        value={draft.medicalNotes}
        maxLength={CHECKIN_LIMITS.medicalNotesMax}
        rows={2}
        error={problem?.fieldErrors.medicalNotes}
        onChange={(e) => setDraft({ ...draft, medicalNotes: e.target.value })}
      />
      {problem && !Object.keys(problem.fieldErrors).length && <Alert kind="error">{problem.message}</Alert>}
      <div className="checkin-family__actions">
        <button type="submit" className="button button--small" disabled={loading}>
          {t("checkin.mine.save")}
        </button>
        {saved && <span role="status">{t("checkin.mine.saved")}</span>}
      </div>
    </form>
  );
}

function PickupList({
  pickups,
  onChange,
}: {
  pickups: NonNullable<CheckinMyHouseholdQuery["myHouseholdCheckin"]>["pickups"];
  onChange(): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const empty = { name: "", relationship: "", status: "TRUSTED" as PickupStatus, notes: "" };
  const [draft, setDraft] = useState(empty);
  const [add, adding] = useCheckinAddPickupPerson();
  const [remove] = useCheckinRemovePickupPerson();
  const [problem, setProblem] = useState<UiError | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      await add({ variables: { input: draft } });
      setDraft(empty);
      onChange();
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }
  return (
    <>
      {pickups.length === 0 ? (
        <p className="empty-state">{t("checkin.mine.noPickups")}</p>
      ) : (
        <ul className="checkin-mine__list">
          {pickups.map((p) => (
            <li key={p.id} className="card checkin-room__child">
              <div>
                <strong>{p.name}</strong>{" "}
                {p.relationship && <span className="muted">({p.relationship})</span>}{" "}
                <span className={`badge ${p.status === "TRUSTED" ? "badge--ok" : "badge--danger"}`}>
                  {t(`checkin.mine.status.${p.status}`)}
                </span>
                {p.notes && <p className="muted">{p.notes}</p>}
              </div>
              <button
                type="button"
                className="button button--ghost button--small"
                aria-label={t("checkin.mine.removeNamed", { name: p.name })}
                onClick={async () => {
                  try {
                    await remove({ variables: { id: p.id } });
                    onChange();
                  } catch (caught) {
                    setNotice({ kind: "error", text: handleError(caught, i18n).message });
                  }
                }}
              >
                {t("checkin.mine.remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <form className="card form" onSubmit={(e) => void submit(e)} noValidate>
        <h3>{t("checkin.mine.addPickup")}</h3>
        {problem && !Object.keys(problem.fieldErrors).length && <Alert kind="error">{problem.message}</Alert>}
        <div className="form__row">
          <TextField
            label={t("checkin.mine.pickupName")}
            value={draft.name}
            maxLength={CHECKIN_LIMITS.pickupNameMax}
            error={problem?.fieldErrors.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
          <TextField
            label={t("checkin.mine.relationship")}
            value={draft.relationship}
            maxLength={CHECKIN_LIMITS.pickupRelationshipMax}
            error={problem?.fieldErrors.relationship}
            onChange={(e) => setDraft({ ...draft, relationship: e.target.value })}
          />
        </div>
        <SelectField
          label={t("checkin.mine.mayPickUp")}
          value={draft.status}
          onChange={(e) => setDraft({ ...draft, status: e.target.value as PickupStatus })}
        >
          <option value="TRUSTED">{t("checkin.mine.status.TRUSTED")}</option>
          <option value="NOT_AUTHORIZED">{t("checkin.mine.status.NOT_AUTHORIZED")}</option>
        </SelectField>
        <TextField
          label={t("checkin.mine.pickupNotes")}
          value={draft.notes}
          maxLength={CHECKIN_LIMITS.pickupNotesMax}
          error={problem?.fieldErrors.notes}
          onChange={(e) => setDraft({ ...draft, notes: e.target.value })}
        />
        <div className="checkin-family__actions">
          <button type="submit" className="button button--small" disabled={adding.loading}>
            {t("checkin.mine.addPickupSubmit")}
          </button>
        </div>
      </form>
    </>
  );
}
