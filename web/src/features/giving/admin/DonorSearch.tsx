import { forwardRef, useEffect, useId, useState, type KeyboardEvent } from "react";
import { useAdminGivingDonors, type AdminGivingDonorsQuery } from "./AdminGiving.generated.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";
import { useDebounced } from "../../../lib/useDebounced.ts";

export type Donor = Omit<AdminGivingDonorsQuery["givingDonors"][number], "__typename">;

/**
 * The donor of a gift, found by typing part of a name (ARIA combobox: arrows move through the matches,
 * Enter or Tab takes the highlighted one, Escape closes the list). Left empty, the gift is anonymous.
 * Typing after a donor was chosen forgets them: what the field shows is always who gave. (The form
 * gives it a new `key` for each gift: it starts from the gift's donor.)
 */
export const DonorSearch = forwardRef<
  HTMLInputElement,
  { donor: Donor | null; onChange(donor: Donor | null): void; error?: string | undefined; onPicked?(): void }
>(function DonorSearch({ donor, onChange, error, onPicked }, ref) {
  const { t } = useI18n();
  const id = useId();
  const [text, setText] = useState(donor?.name ?? "");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebounced(text.trim(), 150);
  const searching = open && !donor && search.length >= 2;
  const { data, loading } = useAdminGivingDonors({
    variables: { search },
    skip: !searching,
    fetchPolicy: "cache-first",
  });
  const matches = searching ? (data?.givingDonors ?? []) : [];
  useEffect(() => setActive(0), [search]);

  function pick(match: Donor) {
    onChange(match);
    setText(match.name);
    setOpen(false);
    onPicked?.();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const listed = open && matches.length > 0;
    if (event.key === "ArrowDown" && listed) {
      event.preventDefault();
      setActive((i) => (i + 1) % matches.length);
    } else if (event.key === "ArrowUp" && listed) {
      event.preventDefault();
      setActive((i) => (i - 1 + matches.length) % matches.length);
    } else if ((event.key === "Enter" || event.key === "Tab") && listed) {
      // Enter takes the match rather than submitting the gift half typed.
      if (event.key === "Enter") event.preventDefault();
      pick(matches[Math.min(active, matches.length - 1)]!);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
    }
  }

  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const status = !searching
    ? ""
    : loading && !data
      ? t("admin.giving.donor.searching")
      : matches.length
        ? t("admin.giving.donor.found", { count: matches.length })
        : t("admin.giving.donor.none");
  return (
    <div className={`field donor-search${error ? " field--invalid" : ""}`}>
      <label htmlFor={id}>{t("admin.giving.gift.donor")}</label>
      <input
        ref={ref}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open && matches.length > 0}
        aria-controls={listId}
        aria-activedescendant={open && matches.length ? `${id}-option-${active}` : undefined}
        aria-describedby={[error ? errorId : "", hintId].filter(Boolean).join(" ")}
        aria-invalid={error ? true : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          if (donor) onChange(null);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <p className="field__hint" id={hintId}>
        {donor
          ? donor.householdName
            ? t("admin.giving.donor.chosenWithHousehold", { household: donor.householdName })
            : t("admin.giving.donor.chosen")
          : text.trim()
            ? status || t("admin.giving.donor.typeMore")
            : t("admin.giving.donor.anonymousHint")}
      </p>
      <ul className="donor-search__list" id={listId} role="listbox" hidden={!open || !matches.length}>
        {matches.map((match, i) => (
          <li
            key={match.personId}
            id={`${id}-option-${i}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? "is-active" : undefined}
            // Before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              pick(match);
            }}
          >
            <strong>{match.name}</strong>
            {match.householdName && <span className="muted"> · {match.householdName}</span>}
          </li>
        ))}
      </ul>
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
});
