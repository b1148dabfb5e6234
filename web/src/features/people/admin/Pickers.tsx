import { useId, useState } from "react";
import {
  useAdminHouseholdPicker,
  useAdminPersonPicker,
  type AdminPersonPickerQuery,
} from "./pickers.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { Avatar, RecordStatusBadge } from "./common.tsx";

const RESULTS = 8;

export interface PickedHousehold {
  id: string;
  name: string;
}

export type PickedPerson = AdminPersonPickerQuery["people"]["edges"][number]["node"];

/**
 * Search households by name and choose one. A search box with the matches as radio buttons: plain
 * form controls that every screen reader and keyboard handles, unlike a hand-made combobox.
 */
export function HouseholdPicker({
  value,
  onChange,
  error,
}: {
  value: PickedHousehold | null;
  onChange(next: PickedHousehold | null): void;
  error?: string | undefined;
}) {
  const { t } = useI18n();
  const id = useId();
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 250);
  const { data, loading } = useAdminHouseholdPicker({ variables: { search: query || null, first: RESULTS } });
  const households = data?.households.edges.map((e) => e.node) ?? [];
  // The chosen one stays listed while the search changes, so the choice never silently disappears.
  const shown =
    value && !households.some((h) => h.id === value.id)
      ? [{ id: value.id, name: value.name, members: [] }, ...households]
      : households;
  return (
    <div className={`picker-field${error ? " field--invalid" : ""}`}>
      <div className="field">
        <label htmlFor={`${id}-search`}>{t("admin.people.picker.householdSearch")}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      <fieldset className="picker-results" aria-busy={loading}>
        <legend className="visually-hidden">{t("admin.people.picker.households")}</legend>
        {shown.length === 0 ? (
          <p className="muted small">{loading ? t("app.loading") : t("admin.people.picker.noHouseholds")}</p>
        ) : (
          shown.map((household) => (
            <label key={household.id} className="picker-option">
              <input
                type="radio"
                name={`${id}-household`}
                checked={value?.id === household.id}
                onChange={() => onChange({ id: household.id, name: household.name })}
              />
              <span>
                <span className="picker-option__name">{household.name}</span>
                {household.members.length > 0 && (
                  <span className="block muted small">
                    {household.members.map((m) => m.displayName).join(", ")}
                  </span>
                )}
              </span>
            </label>
          ))
        )}
      </fieldset>
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Search people by name or email and choose one (for merging and for adding someone to a household). */
export function PersonPicker({
  label,
  value,
  onChange,
  excludeId,
}: {
  label: string;
  value: PickedPerson | null;
  onChange(next: PickedPerson | null): void;
  excludeId?: string;
}) {
  const { t } = useI18n();
  const id = useId();
  const [search, setSearch] = useState("");
  const query = useDebounced(search.trim(), 250);
  const { data, loading } = useAdminPersonPicker({
    variables: { filter: { search: query }, first: RESULTS },
    skip: !query,
  });
  const people = query ? (data?.people.edges.map((e) => e.node) ?? []).filter((p) => p.id !== excludeId) : [];
  const shown = value && !people.some((p) => p.id === value.id) ? [value, ...people] : people;
  return (
    <div className="picker-field">
      <div className="field">
        <label htmlFor={`${id}-search`}>{label}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          autoComplete="off"
        />
      </div>
      <fieldset className="picker-results" aria-busy={loading}>
        <legend className="visually-hidden">{t("admin.people.picker.people")}</legend>
        {shown.length === 0 ? (
          <p className="muted small">
            {!query
              ? t("admin.people.picker.typeToSearch")
              : loading
                ? t("app.loading")
                : t("admin.people.picker.noPeople")}
          </p>
        ) : (
          shown.map((person) => {
            const email = person.emails.find((e) => e.isPrimary) ?? person.emails[0];
            return (
              <label key={person.id} className="picker-option">
                <input
                  type="radio"
                  name={`${id}-person`}
                  checked={value?.id === person.id}
                  onChange={() => onChange(person)}
                />
                <Avatar name={person.displayName} url={person.photoUrl} />
                <span>
                  <span className="picker-option__name">{person.displayName}</span>{" "}
                  {person.recordStatus !== "ACTIVE" && <RecordStatusBadge status={person.recordStatus} />}
                  <span className="block muted small">
                    {[person.household?.name, email?.email].filter(Boolean).join(" · ")}
                  </span>
                </span>
              </label>
            );
          })
        )}
      </fieldset>
    </div>
  );
}
