import { useState, type FormEvent } from "react";
import { LIMITS } from "@flock/shared/limits";
import {
  useAdminCreateServingPosition,
  useAdminDeleteServingPosition,
  useAdminUpdateServingPosition,
  type AdminServingPositionFragment,
  type AdminServingTeamDetailFragment,
} from "./AdminServing.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { Alert, type Notice } from "../../../components/Alert.tsx";
import { CheckboxField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { FormActions } from "../../../components/FormActions.tsx";
import { handleError, type UiError } from "../../../lib/handleError.ts";

// A new or deleted position changes the team's list (and, deleted, its members' positions): the team
// is read again, and the button waits for it.
const REFETCH_TEAM = { refetchQueries: ["AdminServingTeam"], awaitRefetchQueries: true };

/** The places on the team someone can fill: add, change (name, checks), delete. */
export function Positions({ team }: { team: AdminServingTeamDetailFragment }) {
  const { t } = useI18n();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const editable = team.can.edit;
  return (
    <section className="card staff-card" aria-labelledby="serving-positions-title">
      <div className="section-heading">
        <h2 id="serving-positions-title">
          {t("admin.serving.positions")} <span className="muted">({team.positions.length})</span>
        </h2>
        {editable && !adding && (
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => {
              setNotice(null);
              setAdding(true);
            }}
          >
            {t("admin.serving.positions.add")}
          </button>
        )}
      </div>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {team.positions.length === 0 && !adding && (
        <p className="muted">{t("admin.serving.positions.empty")}</p>
      )}
      {team.positions.length > 0 && (
        <ul className="serving-positions">
          {team.positions.map((position) =>
            editing === position.id ? (
              <li key={position.id} className="serving-positions__item serving-positions__item--editing">
                <PositionForm
                  teamId={team.id}
                  position={position}
                  onDone={() => {
                    setEditing(null);
                    setNotice({ kind: "success", text: t("admin.serving.positions.saved") });
                  }}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <PositionRow
                key={position.id}
                position={position}
                editable={editable}
                onEdit={() => {
                  setNotice(null);
                  setEditing(position.id);
                }}
                onDeleted={() =>
                  setNotice({
                    kind: "success",
                    text: t("admin.serving.positions.deleted", { name: position.name }),
                  })
                }
              />
            ),
          )}
        </ul>
      )}
      {adding && (
        <PositionForm
          teamId={team.id}
          onDone={(name) => {
            setAdding(false);
            setNotice({ kind: "success", text: t("admin.serving.positions.added", { name }) });
          }}
          onCancel={() => setAdding(false)}
        />
      )}
    </section>
  );
}

function PositionRow({
  position,
  editable,
  onEdit,
  onDeleted,
}: {
  position: AdminServingPositionFragment;
  editable: boolean;
  onEdit(): void;
  onDeleted(): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [remove, { loading }] = useAdminDeleteServingPosition(REFETCH_TEAM);
  const [problem, setProblem] = useState<string | null>(null);
  async function del() {
    // Deleting takes the position's places on plans and their requests with it: asked first.
    if (!window.confirm(t("admin.serving.positions.confirmDelete", { name: position.name }))) return;
    setProblem(null);
    try {
      await remove({ variables: { id: position.id } });
      onDeleted();
    } catch (caught) {
      setProblem(handleError(caught, i18n).message);
    }
  }
  return (
    <li className="serving-positions__item">
      <div className="serving-positions__text">
        <span className="serving-positions__name">{position.name}</span>
        {(position.requiresBackgroundCheck || position.requiresTraining) && (
          <span className="staff-badges">
            {position.requiresBackgroundCheck && (
              <span className="badge badge--warn">{t("admin.serving.positions.backgroundCheck")}</span>
            )}
            {position.requiresTraining && (
              <span className="badge badge--neutral">{t("admin.serving.positions.training")}</span>
            )}
          </span>
        )}
        {position.description && <span className="muted small">{position.description}</span>}
        {problem && <Alert kind="error">{problem}</Alert>}
      </div>
      {editable && (
        <div className="serving-positions__actions">
          <button
            type="button"
            className="button button--ghost button--small"
            aria-label={t("admin.serving.positions.editNamed", { name: position.name })}
            onClick={onEdit}
          >
            {t("admin.serving.positions.edit")}
          </button>
          <button
            type="button"
            className="button button--danger-ghost button--small"
            aria-label={t("admin.serving.positions.deleteNamed", { name: position.name })}
            disabled={loading}
            onClick={() => void del()}
          >
            {loading ? t("admin.serving.deleting") : t("admin.serving.positions.delete")}
          </button>
        </div>
      )}
    </li>
  );
}

interface PositionDraft {
  name: string;
  description: string;
  requiresBackgroundCheck: boolean;
  requiresTraining: boolean;
}

/** A new position (no `position`) or a change to one; the gateway's field errors on the fields. */
function PositionForm({
  teamId,
  position,
  onDone,
  onCancel,
}: {
  teamId: string;
  position?: AdminServingPositionFragment;
  onDone(name: string): void;
  onCancel(): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState<PositionDraft>({
    name: position?.name ?? "",
    description: position?.description ?? "",
    requiresBackgroundCheck: position?.requiresBackgroundCheck ?? false,
    requiresTraining: position?.requiresTraining ?? false,
  });
  const [problem, setProblem] = useState<UiError | null>(null);
  const [create, creating] = useAdminCreateServingPosition(REFETCH_TEAM);
  const [update, updating] = useAdminUpdateServingPosition();
  const set = <K extends keyof PositionDraft>(key: K, value: PositionDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const input = { ...draft, name: draft.name.trim(), description: draft.description.trim() };
    try {
      if (position) await update({ variables: { id: position.id, input } });
      else await create({ variables: { teamId, input } });
      onDone(input.name);
    } catch (caught) {
      setProblem(handleError(caught, i18n));
    }
  }

  const errors = problem?.fieldErrors ?? {};
  return (
    <form
      className="form serving-position-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={
        position
          ? t("admin.serving.positions.editNamed", { name: position.name })
          : t("admin.serving.positions.new")
      }
    >
      {problem && <Alert kind="error">{problem.message}</Alert>}
      <TextField
        label={t("admin.serving.positions.name")}
        hint={position ? undefined : t("admin.serving.positions.nameHint")}
        value={draft.name}
        maxLength={LIMITS.servingPositionNameMax}
        error={errors.name}
        onChange={(e) => set("name", e.target.value)}
      />
      <TextAreaField
        label={t("admin.serving.positions.description")}
        optionalText={t("common.optional")}
        rows={2}
        value={draft.description}
        maxLength={LIMITS.servingPositionDescriptionMax}
        error={errors.description}
        onChange={(e) => set("description", e.target.value)}
      />
      <CheckboxField
        label={t("admin.serving.positions.requiresBackgroundCheck")}
        checked={draft.requiresBackgroundCheck}
        onChange={(e) => set("requiresBackgroundCheck", e.target.checked)}
      />
      <CheckboxField
        label={t("admin.serving.positions.requiresTraining")}
        checked={draft.requiresTraining}
        onChange={(e) => set("requiresTraining", e.target.checked)}
      />
      <FormActions
        small
        submitLabel={position ? t("admin.serving.positions.save") : t("admin.serving.positions.create")}
        busy={creating.loading || updating.loading}
        onCancel={onCancel}
      />
    </form>
  );
}
