import type { PublicSettingsFragment } from "../app/AppShell.generated.ts";
import { useI18n } from "../i18n/I18nProvider.tsx";
import { ServiceTimes } from "./ServiceTimes.tsx";
import { PostalAddress, telLink } from "./PostalAddress.tsx";

const SOCIAL = ["facebook", "instagram", "youtube", "website"] as const;

export function Footer({ settings }: { settings: PublicSettingsFragment }) {
  const { t } = useI18n();
  const social = SOCIAL.flatMap((name) => (settings.socialLinks[name] ? [[name, settings.socialLinks[name]] as const] : []));
  return (
    <footer className="footer">
      <div className="container footer__grid">
        <section aria-labelledby="footer-church">
          <h2 id="footer-church" className="footer__title">
            {settings.churchName}
          </h2>
          {settings.tagline && <p>{settings.tagline}</p>}
        </section>
        {settings.address && (
          <section aria-labelledby="footer-address">
            <h2 id="footer-address" className="footer__title">
              {t("footer.address")}
            </h2>
            <PostalAddress address={settings.address} />
          </section>
        )}
        {settings.serviceTimes.length > 0 && (
          <section aria-labelledby="footer-services">
            <h2 id="footer-services" className="footer__title">
              {t("footer.services")}
            </h2>
            <ServiceTimes settings={settings} />
          </section>
        )}
        {(settings.phone || settings.email || social.length > 0) && (
          <section aria-labelledby="footer-contact">
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
          </section>
        )}
      </div>
      <p className="container footer__powered">{t("app.poweredBy")}</p>
    </footer>
  );
}
