import { createHash, randomBytes, randomInt } from "node:crypto";
import { ClientResponseError } from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, forbidden, pbCall } from "../../errors.ts";
import type {
  ApiClientRecord,
  CheckinCodeHoldRecord,
  CheckinRoomRecord,
  CheckinStationRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import { requireAbility } from "../../access/guards.ts";
import { checkinSetupCan } from "../../access/checkin.ts";
import { formatApiToken, newSecret } from "../../access/api-tokens.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import {
  fromPocketBaseDate,
  fromPocketBaseDateOrNull,
  parsePocketBaseDate,
  toPocketBaseDate,
  todayIn,
} from "../../pocketbase/dates.ts";
import { Validator } from "../../validation/validate.ts";
import { LIMITS, THROTTLE } from "@flock/shared/limits";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import type { CheckinStationInput, Resolvers } from "../__generated__/types.ts";
import { loadersOf, requireSession } from "./reads.ts";
import { takeOrRefuse } from "../../session/rate-limiter.ts";

/*
 * Check-in stations (pb_migrations/1732630000_checkin_stations.js). An operator adds a station and is
 * shown a pairing code; typed on a tablet's /checkin, it makes that browser the station: an api_clients
 * identity with the scope "checkin.station", whose token the device keeps. From then on the station acts
 * as itself — never as the operator who set it up — with what PocketBase's rules give a station, and the
 * gateway's family reads (families.ts) give it what they give an operator, for its rooms.
 */

/** The scope of a station's identity. */
export const STATION_SCOPE = "checkin.station";
/** Pairing codes: the pickup codes' alphabet (no look-alikes), 8 characters, 15 minutes. */
const PAIRING_ALPHABET = "ACDEFHJKMNPRTUVWXY3479";
const PAIRING_LENGTH = 8;
const PAIRING_MS = 15 * 60 * 1000;
/** Unused codes a station keeps in hand for offline check-ins (pb_hooks/lib/checkin.js allows 20). */
const HOLDS_WANTED = 10;

/** Whether PocketBase refused a write with the hook's validation `code` (its raw answer, before pbCall maps it). */
const refusedWith = (error: unknown, code: string) =>
  error instanceof ClientResponseError &&
  Object.values((error.response?.data ?? {}) as Record<string, { code?: string }>).some(
    (detail) => detail?.code === `validation_${code}`,
  );

const pairingHash = (code: string) => createHash("sha256").update(code).digest("hex");
/** A code as typed: upper case, without spaces or dashes. */
const normalizeCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, "");

/** Who works a check-in desk: a signed-in operator, or a registered station. */
export type CheckinDesk =
  | { kind: "operator"; user: UserRecord; station: null }
  | { kind: "station"; user: null; station: CheckinStationRecord };

const stations = new WeakMap<GatewayContext, Promise<CheckinStationRecord | null>>();

/** The station the caller is (a system read of its record, once per request), or null. */
export function stationOf(ctx: GatewayContext): Promise<CheckinStationRecord | null> {
  const client = ctx.apiClient?.client;
  if (!client?.scopes.includes(STATION_SCOPE)) return Promise.resolve(null);
  let found = stations.get(ctx);
  if (!found) {
    found = ctx.system.get().then(async (system) => {
      const page = await system.collection("checkin_stations").getList<CheckinStationRecord>(1, 1, {
        filter: system.filter("client = {:client}", { client: client.id }),
        skipTotal: true,
      });
      return page.items[0] ?? null;
    });
    stations.set(ctx, found);
  }
  return found;
}

/** The caller works a check-in desk (an operator or a registered station), or FORBIDDEN. */
export async function requireDesk(ctx: GatewayContext): Promise<CheckinDesk> {
  const station = await stationOf(ctx);
  if (station) return { kind: "station", user: null, station };
  return { kind: "operator", user: await requireAbility(ctx, "operateCheckin"), station: null };
}

/** A self station shows families no pickup alerts or medical notes (a lobby screen anyone may stand at). */
export const isSelfStation = async (ctx: GatewayContext) => (await stationOf(ctx))?.mode === "self";

async function stationFields(ctx: GatewayContext, input: CheckinStationInput) {
  const v = new Validator();
  const name = v.text("name", input.name, { required: true, max: CHECKIN_LIMITS.checkinStationNameMax });
  const rooms = [...new Set(input.roomIds)];
  if (rooms.length > CHECKIN_LIMITS.checkinSessionRoomsMax)
    v.add("roomIds", "too_many", `At most ${CHECKIN_LIMITS.checkinSessionRoomsMax} rooms.`);
  v.done();
  const known = (await loadersOf(ctx).room.loadMany(rooms)).filter(
    (room) => room && !(room instanceof Error),
  );
  if (known.length !== rooms.length)
    throw badUserInput({ roomIds: { code: "not_found", message: "A room was not found." } });
  return { name, mode: input.mode, labelSize: input.labelSize, rooms };
}

/** A new pairing code for `station` (kept as a hash, by the system: operators may not write it). */
async function pair(ctx: GatewayContext, station: CheckinStationRecord, user: UserRecord) {
  let code = "";
  for (let i = 0; i < PAIRING_LENGTH; i++) code += PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)];
  const expiresAt = new Date(Date.now() + PAIRING_MS);
  const system = await ctx.system.get();
  const updated = await system.collection("checkin_stations").update<CheckinStationRecord>(station.id, {
    pairingHash: pairingHash(code),
    pairingExpiresAt: toPocketBaseDate(expiresAt),
    pairedBy: user.id,
  });
  return {
    station: updated,
    code: `${code.slice(0, 4)}-${code.slice(4)}`,
    expiresAt: expiresAt.toISOString(),
  };
}

/** Registrations tried per address in an hour (a code has 22⁸ values and lives 15 minutes: guessing is hopeless). */
function throttleRegistration(ctx: GatewayContext): Promise<void> {
  const key = `form:checkin-station:${ctx.clientIp}`;
  return takeOrRefuse(ctx.limiter, key, THROTTLE.stationRegistrationsPerIp, THROTTLE.anonymousFormWindowMs);
}

export const stationResolvers: Resolvers = {
  CheckinStation: {
    async rooms(station, _, ctx) {
      const rooms = await loadersOf(ctx).room.loadMany(station.rooms);
      return rooms.filter((room): room is CheckinRoomRecord => !!room && !(room instanceof Error));
    },
    registeredAt: (station) => fromPocketBaseDateOrNull(station.registeredAt),
    pairingExpiresAt: (station) =>
      station.pairingExpiresAt && Date.parse(station.pairingExpiresAt.replace(" ", "T")) > Date.now()
        ? fromPocketBaseDate(station.pairingExpiresAt)
        : null,
    can: async (_, __, ctx) => checkinSetupCan(await ctx.viewer()),
  },
  Query: {
    async checkinStations(_, __, ctx) {
      await requireAbility(ctx, "operateCheckin");
      return pbCall(() =>
        ctx.pb.collection("checkin_stations").getFullList<CheckinStationRecord>({ sort: "name" }),
      );
    },
    thisCheckinStation: (_, __, ctx) => stationOf(ctx),
  },
  Mutation: {
    async createCheckinStation(_, { input }, ctx) {
      const user = await requireAbility(ctx, "operateCheckin");
      const fields = await stationFields(ctx, input);
      const station = await writeAsCaller(() =>
        ctx.pb.collection("checkin_stations").create<CheckinStationRecord>(fields),
      );
      return pair(ctx, station, user);
    },
    async updateCheckinStation(_, { id, input }, ctx) {
      await requireAbility(ctx, "operateCheckin");
      const fields = await stationFields(ctx, input);
      return writeAsCaller(() =>
        ctx.pb.collection("checkin_stations").update<CheckinStationRecord>(id, fields),
      );
    },
    async pairCheckinStation(_, { id }, ctx) {
      const user = await requireAbility(ctx, "operateCheckin");
      const station = await pbCall(() =>
        ctx.pb.collection("checkin_stations").getOne<CheckinStationRecord>(id),
      );
      return pair(ctx, station, user);
    },
    async deleteCheckinStation(_, { id }, ctx) {
      await requireAbility(ctx, "operateCheckin");
      const station = await pbCall(() =>
        ctx.pb.collection("checkin_stations").getOne<CheckinStationRecord>(id),
      );
      await writeAsCaller(() => ctx.pb.collection("checkin_stations").delete(id));
      // Its identity goes with it (a system job: api_clients are not the operator's to delete).
      if (station.client) {
        const system = await ctx.system.get();
        await system.collection("api_clients").delete(station.client);
        ctx.apiTokens.forget(station.client);
      }
      return true;
    },
    async registerCheckinStation(_, { code }, ctx) {
      await throttleRegistration(ctx);
      const typed = normalizeCode(code);
      const system = await ctx.system.get();
      const page =
        typed.length === PAIRING_LENGTH
          ? await system.collection("checkin_stations").getList<CheckinStationRecord>(1, 1, {
              filter: system.filter("pairingHash = {:hash} && pairingExpiresAt > {:now}", {
                hash: pairingHash(typed),
                now: toPocketBaseDate(new Date()),
              }),
              skipTotal: true,
            })
          : { items: [] };
      const station = page.items[0];
      if (!station)
        throw badUserInput({
          code: {
            code: "invalid_code",
            message: "This code is not valid or has expired. Ask staff for a new one.",
          },
        });
      // The device's identity: a machine client with the station scope and nothing else.
      const { secret, secretHash } = newSecret();
      const throwaway = randomBytes(24).toString("base64url");
      const client = await system.collection("api_clients").create<ApiClientRecord>({
        name: `Check-in station: ${station.name}`.slice(0, LIMITS.apiTokenNameMax),
        scopes: [STATION_SCOPE],
        createdBy: station.pairedBy,
        email: `${randomBytes(9).toString("hex")}@checkin-stations.invalid`,
        emailVisibility: false,
        password: throwaway,
        passwordConfirm: throwaway,
        secretHash,
      });
      const registered = await system
        .collection("checkin_stations")
        .update<CheckinStationRecord>(station.id, {
          client: client.id,
          pairingHash: "",
          pairingExpiresAt: "",
          registeredAt: toPocketBaseDate(new Date()),
        });
      // One device per station: the one it replaces stops now.
      if (station.client) {
        await system
          .collection("api_clients")
          .delete(station.client)
          .catch(() => undefined);
        ctx.apiTokens.forget(station.client);
      }
      return { station: registered, token: formatApiToken(client.id, secret) };
    },
    async holdCheckinCodes(_, { sessionId }, ctx) {
      const station = await stationOf(ctx);
      if (!station) throw forbidden("Only a registered check-in station holds codes.");
      const session = await requireSession(ctx, sessionId);
      // The codes are the session's day's (church time), as the hook dates them.
      const day = todayIn(
        (await ctx.publicSettings.get()).timezone || "UTC",
        parsePocketBaseDate(session.startsAt),
      );
      const holds = ctx.pb.collection("checkin_code_holds");
      const unused = () =>
        pbCall(() =>
          holds.getFullList<CheckinCodeHoldRecord>({
            filter: ctx.pb.filter('household = "" && day = {:day}', { day }),
            sort: "created",
          }),
        );
      let mine = await unused();
      if (mine.length < HOLDS_WANTED) {
        for (let i = mine.length; i < HOLDS_WANTED; i++) {
          try {
            await holds.create<CheckinCodeHoldRecord>({ session: session.id });
          } catch (error) {
            // Another request of this station's (a second session opened at once) topped it up meanwhile:
            // the hook's allowance is full, and what is held is enough.
            if (refusedWith(error, "too_many_holds")) break;
            await pbCall(() => Promise.reject(error));
          }
        }
        mine = await unused();
      }
      // The oldest first, never more than a station keeps in hand (two top-ups at once may hold more).
      return mine.slice(0, HOLDS_WANTED).map((row) => row.code);
    },
  },
};
