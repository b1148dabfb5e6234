import type { SettingsRecord } from "../pocketbase/records.ts";

/** What the served HTML says about a page before any JavaScript runs (title, description, links). */
export interface PageMeta {
  title: string;
  description: string;
  /** false: answer 404 (the app still renders its not-found page). */
  found: boolean;
  noindex?: boolean;
}

type MetaResolver = (settings: SettingsRecord, params: Record<string, string>) => PageMeta | Promise<PageMeta>;

const titled = (page: string, options: { noindex?: boolean } = {}): MetaResolver => (settings) => ({
  title: `${page} · ${settings.churchName}`,
  description: settings.tagline || settings.churchName,
  found: true,
  ...options,
});

/**
 * The app's routes as the server knows them. Later features add their patterns here (with data
 * lookups for titles, Open Graph and JSON-LD); anything unmatched is served with status 404.
 */
export const ROUTES: Array<[pattern: RegExp, resolve: MetaResolver]> = [
  [/^\/$/, (s) => ({ title: s.tagline ? `${s.churchName} · ${s.tagline}` : s.churchName, description: s.tagline || s.churchName, found: true })],
  [/^\/login$/, titled("Sign in")],
  [/^\/signup$/, titled("Create an account")],
  [/^\/forgot-password$/, titled("Forgot password", { noindex: true })],
  [/^\/reset-password$/, titled("Reset password", { noindex: true })],
  [/^\/verify-email$/, titled("Verify email", { noindex: true })],
  [/^\/me(\/.*)?$/, titled("My account", { noindex: true })],
  [/^\/admin(\/.*)?$/, titled("Administration", { noindex: true })],
];

export async function metaForPath(path: string, settings: SettingsRecord): Promise<PageMeta> {
  for (const [pattern, resolve] of ROUTES) {
    const match = pattern.exec(path);
    if (match) return resolve(settings, match.groups ?? {});
  }
  return { title: `Page not found · ${settings.churchName}`, description: settings.tagline || settings.churchName, found: false, noindex: true };
}
