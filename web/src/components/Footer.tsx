import type { PublicSettingsFragment } from "../gql/AppShell.generated.ts";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { ServiceTimes } from "./ServiceTimes.tsx";
import { PostalAddress, telLink } from "./PostalAddress.tsx";

const SOCIAL = ["facebook", "instagram", "youtube", "website"] as const;

export function Footer({ settings }: { settings: PublicSettingsFragment }) {
  const { t } = useI18n();
  const social = SOCIAL.flatMap((name) =>
    settings.socialLinks[name] ? [[name, settings.socialLinks[name]] as const] : [],
  );
  return (
    <footer className="footer">
      {/* Plain blocks, not named regions: the footer is the landmark, and regions here repeated the
          page's own names ("Contact" twice on the home page: axe landmark-unique). */}
      <div className="container footer__grid">
        <div>
          <h2 id="footer-church" className="footer__title">
            {settings.churchName}
          </h2>
          {settings.tagline && <p>{settings.tagline}</p>}
        </div>
        {settings.address && (
          <div>
            <h2 id="footer-address" className="footer__title">
              {t("footer.address")}
            </h2>
            <PostalAddress address={settings.address} />
          </div>
        )}
        {settings.serviceTimes.length > 0 && (
          <div>
            <h2 id="footer-services" className="footer__title">
              {t("footer.services")}
            </h2>
            <ServiceTimes settings={settings} />
          </div>
        )}
        {(settings.phone || settings.email || social.length > 0) && (
          <div>
            <h2 id="footer-contact" className="footer__title">
              {t("footer.contact")}
            </h2>
            {settings.phone && (
              <a className="block" href={telLink(settings.phone)}>
                {settings.phone}
              </a>
            )}
            {settings.email && (
              <a className="block" href={`mailto:${settings.email}`}>
                {settings.email}
              </a>
            )}
            {social.map(([name, url]) => (
              <a key={name} className="block" href={url} rel="noopener noreferrer" target="_blank">
                {t(`social.${name}`)}
              </a>
            ))}
          </div>
        )}
      </div>
      <p className="container footer__powered">{t("app.poweredBy")}</p>
    </footer>
  );
}
