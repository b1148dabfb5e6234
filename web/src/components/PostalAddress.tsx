import { useI18n } from "../i18n/I18nProvider.tsx";

const mapLink = (address: string) =>
  `https://www.openstreetmap.org/search?query=${encodeURIComponent(address.replace(/\n/g, ", "))}`;

/** The church's address, one line per line, with a link that opens it on a map. */
export function PostalAddress({ address }: { address: string }) {
  const { t } = useI18n();
  return (
    <>
      <address>
        {address.split("\n").map((line, i) => (
          <span key={i} className="block">
            {line}
          </span>
        ))}
      </address>
      <p>
        <a href={mapLink(address)} rel="noopener noreferrer" target="_blank">
          {t("home.openMap")}
        </a>
      </p>
    </>
  );
}

/** A phone number as a tel: link (digits and + only in the link). */
export const telLink = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;
