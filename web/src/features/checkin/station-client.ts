import { ApolloClient, InMemoryCache } from "@apollo/client";
import { CSRF_HEADERS } from "../../lib/apollo.ts";
import { jsonHttpLink } from "../../lib/http-link.ts";

/*
 * A registered station's credential (gateway: schema/checkin/stations.ts), kept on the device: the
 * station's GraphQL calls carry it as `Authorization: Bearer`, through a client of their own, so the
 * station acts as itself whoever is (or is not) signed in on the browser — and the rest of the app
 * keeps acting as that person.
 */

const TOKEN_KEY = "flock.checkin.stationToken";
/** The station's settings as last read, for a station reloaded without network. */
const SETTINGS_KEY = "flock.checkin.station";

/** What a station last knew of itself (staff keep it at /admin/checkin). */
export interface RememberedStation {
  name: string;
  mode: "staffed" | "self";
  labelSize: "62mm" | "225in" | "none";
}

export const stationToken = (): string | null => localStorage.getItem(TOKEN_KEY);
export const saveStationToken = (token: string) => localStorage.setItem(TOKEN_KEY, token);
export function forgetStationToken() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(SETTINGS_KEY);
}

export const rememberStation = (settings: RememberedStation) =>
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
export function rememberedStation(): RememberedStation | null {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "null") as RememberedStation | null;
  } catch {
    return null;
  }
}

/** The GraphQL client a registered station calls with. */
export function createStationClient(token: string): ApolloClient {
  return new ApolloClient({
    link: jsonHttpLink("/graphql", { ...CSRF_HEADERS, authorization: `Bearer ${token}` }),
    cache: new InMemoryCache(),
  });
}
