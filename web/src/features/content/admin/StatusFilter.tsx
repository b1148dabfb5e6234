import type { PageStatus, PostStatus } from "../../../gql/types.ts";
import { useI18n } from "../../../i18n/I18nProvider.tsx";

/** All / Draft / Scheduled… as toggle buttons (aria-pressed): one list, filtered in place. */
export function StatusFilter<S extends PostStatus | PageStatus>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: S[];
  value: S | null;
  onChange(next: S | null): void;
}) {
  const { t } = useI18n();
  return (
    <div className="status-filter" role="group" aria-label={label}>
      <button type="button" aria-pressed={value === null} onClick={() => onChange(null)}>
        {t("admin.content.status.ALL")}
      </button>
      {options.map((option) => (
        <button key={option} type="button" aria-pressed={value === option} onClick={() => onChange(option)}>
          {t(`admin.content.status.${option}`)}
        </button>
      ))}
    </div>
  );
}
