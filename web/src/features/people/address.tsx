import { useI18n } from "../../i18n/I18nProvider.tsx";
import type { Locale } from "../../i18n/format.ts";

export interface AddressParts {
  street1: string;
  street2?: string | null;
  city: string;
  region?: string | null;
  postalCode?: string | null;
  country: string;
}

/** ISO 3166-1 alpha-2 codes; the names come from the browser (Intl.DisplayNames) in the reader's language. */
const COUNTRY_CODES = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
  "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
  "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
  "KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT " +
  "MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
  "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
  "UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");

export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every country, sorted by its name in the reader's language. */
export function countryOptions(locale: Locale): Array<{ code: string; name: string }> {
  const collator = new Intl.Collator(locale);
  return COUNTRY_CODES.map((code) => ({ code, name: countryName(code, locale) })).sort((a, b) =>
    collator.compare(a.name, b.name),
  );
}

/** The reader's own country from the browser language ("en-US" → "US"), a sensible default for a new address. */
export function browserCountry(): string {
  const languages = typeof navigator === "undefined" ? [] : navigator.languages;
  const region = languages
    .map((l) => l.split("-")[1]?.toUpperCase())
    .find((r): r is string => !!r && COUNTRY_CODES.includes(r));
  return region ?? "US";
}

export function addressLines(address: AddressParts, locale: Locale): string[] {
  const cityLine = [address.city, [address.region, address.postalCode].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  const lines = [address.street1, address.street2 ?? "", cityLine];
  // The country only when it isn't the reader's own, as on an envelope.
  if (address.country !== browserCountry()) lines.push(countryName(address.country, locale));
  return lines.filter((line) => line.trim());
}

const mapLink = (lines: string[]) =>
  `https://www.openstreetmap.org/search?query=${encodeURIComponent(lines.join(", "))}`;

/** A household's address, one line per line, with a map link that (for screen readers) names whose it is. */
export function AddressLines({ address, whose }: { address: AddressParts; whose?: string }) {
  const { t, locale } = useI18n();
  const lines = addressLines(address, locale);
  return (
    <>
      <address className="contact-address">
        {lines.map((line, i) => (
          <span key={i} className="block">
            {line}
          </span>
        ))}
      </address>
      <a href={mapLink(lines)} rel="noopener noreferrer" target="_blank" className="small">
        {t("home.openMap")}
        {/* Added after the visible words, so the link's name still starts with what is seen (WCAG 2.5.3). */}
        {whose && <span className="visually-hidden">{t("directory.mapOf", { name: whose })}</span>}
      </a>
    </>
  );
}
