import { useState } from "react";
import { useI18n } from "../i18n/I18nProvider.tsx";
import "./calendar-subscribe.css";

/**
 * Subscribing to a calendar feed (the church's events, a person's own calendar). Its words are in the events catalog. The link is webcal://, so a calendar app subscribes (and keeps the
 * dates current) instead of importing a one-time copy as an http link does on a phone; the steps and the
 * address to paste cover the apps that need it pasted (Google Calendar, Outlook).
 */
export function CalendarSubscribe({ url, label }: { url: string; label: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const absolute = new URL(url, window.location.origin).href;
  const webcal = absolute.replace(/^https?:/, "webcal:");
  return (
    <div className="calendar-subscribe">
      <a className="button button--small button--ghost" href={webcal}>
        {label}
      </a>
      <details>
        <summary>{t("events.subscribe.how")}</summary>
        <ul>
          <li>{t("events.subscribe.apple")}</li>
          <li>{t("events.subscribe.google")}</li>
          <li>{t("events.subscribe.outlook")}</li>
        </ul>
        <p className="calendar-subscribe__address">
          <input
            readOnly
            value={absolute}
            aria-label={t("events.subscribe.address")}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button
            type="button"
            className="button button--small"
            onClick={() =>
              void navigator.clipboard.writeText(absolute).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {t("events.subscribe.copy")}
          </button>
          <span role="status">{copied ? t("events.subscribe.copied") : ""}</span>
        </p>
      </details>
    </div>
  );
}
