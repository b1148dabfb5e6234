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

export const stationToken = (): string | null => localStorage.getItem(TOKEN_KEY);
export const saveStationToken = (token: string) => localStorage.setItem(TOKEN_KEY, token);
export const forgetStationToken = () => localStorage.removeItem(TOKEN_KEY);

/** The GraphQL client a registered station calls with. */
export function createStationClient(token: string): ApolloClient {
  return new ApolloClient({
    link: jsonHttpLink("/graphql", { ...CSRF_HEADERS, authorization: `Bearer ${token}` }),
    cache: new InMemoryCache(),
  });
}
