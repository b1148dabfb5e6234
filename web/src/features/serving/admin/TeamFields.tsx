import { LIMITS } from "@flock/shared/limits";
import { CheckboxField, TextAreaField, TextField } from "../../../components/Field.tsx";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import type { ServingTeamInput } from "../../../gql/types.ts";

/** A team's form as typed: the reminder days stay text while typed (an emptied box is not 0). */
export interface TeamDraft {
  name: string;
  description: string;
  reminderDays: string;
  allowSignup: boolean;
  showNames: boolean;
  autoOffer: boolean;
}

/** A new team: the gateway's own defaults (2 days' reminder, names shown), so the form says what it gets. */
export const NEW_TEAM: TeamDraft = {
  name: "",
  description: "",
  reminderDays: "2",
  allowSignup: false,
  showNames: true,
  autoOffer: false,
};

export function draftOf(team: Omit<ServingTeamInput, "reminderDays"> & { reminderDays: number }): TeamDraft {
  return {
    name: team.name,
    description: team.description ?? "",
    reminderDays: String(team.reminderDays),
    allowSignup: !!team.allowSignup,
    showNames: !!team.showNames,
    autoOffer: !!team.autoOffer,
  };
}

/**
 * The draft as the API takes it. Nothing is checked here: the gateway answers an empty name or a
 * reminder out of 0–14 with field errors, shown on the fields (one set of rules, the server's).
 */
export function teamInput(draft: TeamDraft): ServingTeamInput {
  const days = draft.reminderDays.trim() === "" ? NaN : Number(draft.reminderDays);
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    // Not a whole number: left out, so the team keeps its reminder (a new one gets the default).
    reminderDays: Number.isInteger(days) ? days : null,
    allowSignup: draft.allowSignup,
    showNames: draft.showNames,
    autoOffer: draft.autoOffer,
  };
}

/** The team's fields, shared by the "New team" drawer and the team page's settings. */
export function TeamFields({
  draft,
  onChange,
  errors,
  disabled = false,
}: {
  draft: TeamDraft;
  onChange(next: TeamDraft): void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const set = <K extends keyof TeamDraft>(key: K, value: TeamDraft[K]) =>
    onChange({ ...draft, [key]: value });
  return (
    <>
      <TextField
        label={t("admin.serving.team.name")}
        value={draft.name}
        maxLength={LIMITS.servingTeamNameMax}
        error={errors.name}
        disabled={disabled}
        onChange={(e) => set("name", e.target.value)}
      />
      <TextAreaField
        label={t("admin.serving.team.description")}
        optionalText={t("common.optional")}
        rows={3}
        value={draft.description}
        maxLength={LIMITS.servingTeamDescriptionMax}
        error={errors.description}
        disabled={disabled}
        onChange={(e) => set("description", e.target.value)}
      />
      <TextField
        label={t("admin.serving.team.reminderDays")}
        hint={t("admin.serving.team.reminderDaysHint", { max: LIMITS.servingReminderDaysMax })}
        type="number"
        inputMode="numeric"
        min={0}
        max={LIMITS.servingReminderDaysMax}
        value={draft.reminderDays}
        error={errors.reminderDays}
        disabled={disabled}
        onChange={(e) => set("reminderDays", e.target.value)}
      />
      <CheckboxField
        label={t("admin.serving.team.allowSignup")}
        checked={draft.allowSignup}
        disabled={disabled}
        onChange={(e) => set("allowSignup", e.target.checked)}
      />
      <CheckboxField
        label={t("admin.serving.team.showNames")}
        checked={draft.showNames}
        disabled={disabled}
        onChange={(e) => set("showNames", e.target.checked)}
      />
      <CheckboxField
        label={t("admin.serving.team.autoOffer")}
        checked={draft.autoOffer}
        disabled={disabled}
        onChange={(e) => set("autoOffer", e.target.checked)}
      />
    </>
  );
}
