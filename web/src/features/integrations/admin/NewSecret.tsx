import { useState } from "react";
import { useI18n } from "../../../i18n/I18nProvider.tsx";

/** A secret shown once (an API token, a webhook's signing secret): copy it now. */
export function NewSecret({
  title,
  text,
  label,
  secret,
  onDone,
}: {
  title: string;
  text: string;
  label: string;
  secret: string;
  onDone(): void;
}) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <section className="card integrations__secret" aria-label={title} role="status">
      <h2>{title}</h2>
      <p>{text}</p>
      <label className="field">
        <span className="field__label">{label}</span>
        <input
          className="integrations__secret-value"
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
          spellCheck={false}
        />
      </label>
      <div className="actions">
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t("admin.integrations.copied") : t("admin.integrations.copy")}
        </button>
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t("admin.integrations.stored")}
        </button>
      </div>
    </section>
  );
}
