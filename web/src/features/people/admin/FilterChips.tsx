import { useId } from "react";

/**
 * A labelled set of toggle buttons (aria-pressed) for a multi-choice filter: none pressed means
 * "any". Buttons rather than checkboxes so the choice reads as a filter and stays large enough to tap.
 */
export function FilterChips<V extends string>({
  label,
  options,
  value,
  onChange,
  optionLabel,
}: {
  label: string;
  options: V[];
  value: V[];
  onChange(next: V[]): void;
  optionLabel(option: V): string;
}) {
  const id = useId();
  return (
    <div className="filter-chips" role="group" aria-labelledby={id}>
      <span id={id} className="filter-chips__label">
        {label}
      </span>
      {options.map((option) => {
        const pressed = value.includes(option);
        return (
          <button
            key={option}
            type="button"
            className="filter-chip"
            aria-pressed={pressed}
            onClick={() => onChange(pressed ? value.filter((v) => v !== option) : [...value, option])}
          >
            {pressed && <span aria-hidden="true">✓ </span>}
            {optionLabel(option)}
          </button>
        );
      })}
    </div>
  );
}
