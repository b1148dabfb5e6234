import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { GraphQLError } from "graphql";
import { ClientResponseError } from "pocketbase";
import { slugify } from "@flock/shared/slug";
import { can } from "../../access/abilities.ts";
import { ErrorCode } from "../../errors.ts";
import { callerCredential, refuseCredential } from "../../http/caller-credential.ts";
import type { FeatureHttp, RouteKit } from "../../http/route-table.ts";
import { fileTokenFor } from "../../http/files-proxy.ts";
import { createUserClient } from "../../pocketbase/client.ts";
import { findById } from "../../pocketbase/records-io.ts";
import type { GivingStatementRunRecord, UserRecord } from "../../pocketbase/records.ts";
import { statementPdf } from "./statement-pdf.ts";
import { readBrand, readDonors, readFunds, readUnitsGifts } from "./statement-data.ts";
import { checkPeriod, statementTotals, unitKey, yearPeriod, type GivingUnit } from "./statements.ts";

/*
 * One giving statement as a PDF download (issue 29), a plain GET so the browser saves it:
 *
 *   GET /giving/statement.pdf?year=2026              the caller's own unit, a calendar year
 *   GET /giving/statement.pdf?from=…&to=…            any period (YYYY-MM-DD, the last day included)
 *   …&household=<id> or …&person=<id>                a named unit: the caller's own, or any for finance
 *   GET /giving/statement-runs/<id>.zip              a finished run's zip of every donor's statement (finance)
 *
 * A member's own unit is their household when they are an active adult in one (the rules give them its
 * gifts), else themselves (what they gave individually). The gifts are read with the caller's token:
 * PocketBase's rules decide what a statement lists, never the system. Someone asking for a unit that is
 * not theirs without finance (viewGiving) gets 404, as a hidden record does.
 */

export const STATEMENT_PATH = "/giving/statement.pdf";
/** A run's zip (statement-runs.ts): its id in the path. */
const RUN_ZIP_PATH = /^\/giving\/statement-runs\/([a-z0-9]{15})\.zip$/;
export const runZipPath = (runId: string) => `/giving/statement-runs/${runId}.zip`;

type Refusal = { status: number; code: string; message: string; extensions?: Record<string, unknown> };

function refuse(res: ServerResponse, headers: Record<string, string>, refusal: Refusal): void {
  res
    .writeHead(refusal.status, {
      ...headers,
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
    })
    .end(
      JSON.stringify({
        errors: [{ message: refusal.message, extensions: { code: refusal.code, ...refusal.extensions } }],
      }),
    );
}

const NOT_FOUND: Refusal = { status: 404, code: ErrorCode.NOT_FOUND, message: "No such statement." };
const SIGN_IN: Refusal = {
  status: 401,
  code: ErrorCode.UNAUTHENTICATED,
  message: "Please sign in to continue.",
};

/** The caller's account (roles and person expanded), from the viewer cache or PocketBase; null if none. */
async function callerAccount(kit: RouteKit, token: string): Promise<UserRecord | null> {
  const cached = kit.services.viewerCache.get(token);
  if (cached) return cached.user;
  try {
    const auth = await createUserClient(kit.config.pbUrl, token)
      .collection("users")
      .authRefresh<UserRecord>({ expand: "roles,person" });
    return auth.record;
  } catch (error) {
    // An API token's identity is no person: statements are for people signed in.
    if (error instanceof ClientResponseError && error.status >= 400 && error.status < 500) return null;
    throw error;
  }
}

/** The unit asked for (or the caller's own), or null when the caller may not have it. */
export function statementUnit(user: UserRecord, params: URLSearchParams): GivingUnit | null {
  const person = user.expand?.person;
  const ownHousehold =
    person && person.household && person.recordStatus === "active" && person.ageGroup === "adult"
      ? person.household
      : "";
  const household = params.get("household");
  const personId = params.get("person");
  const asked: GivingUnit | null = household
    ? { kind: "household", id: household }
    : personId
      ? { kind: "person", id: personId }
      : null;
  if (!asked) {
    if (ownHousehold) return { kind: "household", id: ownHousehold };
    return user.person ? { kind: "person", id: user.person } : null;
  }
  if (can(user, "viewGiving")) return asked;
  const own =
    (asked.kind === "household" && asked.id === ownHousehold) ||
    (asked.kind === "person" && asked.id === user.person);
  return own ? asked : null;
}

/** The period from `year`, or `from` and `to`; a refusal with field errors when they are not one. */
function periodOf(params: URLSearchParams) {
  try {
    const year = params.get("year");
    if (year !== null) return yearPeriod(/^\d{1,4}$/.test(year) ? Number(year) : NaN);
    return checkPeriod({ from: params.get("from"), to: params.get("to") });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return {
      status: 400,
      code: ErrorCode.BAD_USER_INPUT,
      message: error.message,
      extensions: {
        fieldErrors: error.extensions.fieldErrors,
        fieldErrorCodes: error.extensions.fieldErrorCodes,
      },
    } satisfies Refusal;
  }
}

async function serveStatement(kit: RouteKit, req: IncomingMessage, res: ServerResponse, url: URL) {
  const { headers } = kit;
  if (req.method !== "GET") {
    res.writeHead(405, { ...headers, allow: "GET" }).end();
    return;
  }
  const credential = await callerCredential(req, kit.services);
  if (credential.kind === "invalid") return refuseCredential(res, headers);
  if (credential.kind === "none") return refuse(res, headers, SIGN_IN);
  const user = await callerAccount(kit, credential.pbToken);
  if (!user) return refuse(res, headers, SIGN_IN);
  const period = periodOf(url.searchParams);
  if ("status" in period) return refuse(res, headers, period);
  const unit = statementUnit(user, url.searchParams);
  if (!unit) return refuse(res, headers, NOT_FOUND);

  const caller = createUserClient(kit.config.pbUrl, credential.pbToken);
  const system = await kit.services.system.get();
  const settings = await kit.services.publicSettings.get();
  const [gifts, funds, donors, brand] = await Promise.all([
    readUnitsGifts(caller, [unit], period),
    readFunds(system),
    readDonors(system, [unit]),
    readBrand(kit.config.pbUrl, settings),
  ]);
  const donor = donors.get(unitKey(unit)) ?? { name: "", addressLines: [] };
  const doc = statementPdf(brand, donor, period, statementTotals(gifts, funds, period));
  const filename = `${slugify(settings.churchName) || "statement"}-statement-${period.from}-${period.to}.pdf`;
  res.writeHead(200, {
    ...headers,
    "content-type": "application/pdf",
    "content-disposition": `attachment; filename="${filename}"`,
    "cache-control": "private, no-store",
  });
  doc.pipe(res);
  doc.end();
}

/**
 * A finished run's zip, streamed from PocketBase: the run is read with the caller's token (only finance
 * may read runs) and its protected file with the caller's own file token, so PocketBase decides twice.
 */
async function serveRunZip(kit: RouteKit, req: IncomingMessage, res: ServerResponse, runId: string) {
  const { headers } = kit;
  if (req.method !== "GET") {
    res.writeHead(405, { ...headers, allow: "GET" }).end();
    return;
  }
  const credential = await callerCredential(req, kit.services);
  if (credential.kind === "invalid") return refuseCredential(res, headers);
  if (credential.kind === "none") return refuse(res, headers, SIGN_IN);
  const caller = createUserClient(kit.config.pbUrl, credential.pbToken);
  const run = await findById<GivingStatementRunRecord>(caller, "giving_statement_runs", runId);
  if (!run || run.status !== "done" || !run.statements) return refuse(res, headers, NOT_FOUND);
  const token = await fileTokenFor(kit.config.pbUrl, credential.pbToken);
  const upstream = await fetch(caller.files.getURL(run, run.statements, { token: token ?? "" }));
  if (!upstream.ok || !upstream.body) return refuse(res, headers, NOT_FOUND);
  const settings = await kit.services.publicSettings.get();
  const name = `${slugify(settings.churchName) || "giving"}-statements-${run.from.slice(0, 10)}-${run.to.slice(0, 10)}.zip`;
  res.writeHead(200, {
    ...headers,
    "content-type": "application/zip",
    ...(upstream.headers.get("content-length") && {
      "content-length": upstream.headers.get("content-length")!,
    }),
    "content-disposition": `attachment; filename="${name}"`,
    "cache-control": "private, no-store",
  });
  await pipeline(Readable.fromWeb(upstream.body as WebReadableStream), res);
}

// Giving statements' entry in the gateway's route table.
export const givingStatementsHttp: FeatureHttp = {
  routes: (kit) => [
    {
      match: (url) => url.pathname === STATEMENT_PATH,
      handle: (req, res, url) => serveStatement(kit, req, res, url),
    },
    {
      match: (url) => RUN_ZIP_PATH.test(url.pathname),
      handle: (req, res, url) => serveRunZip(kit, req, res, RUN_ZIP_PATH.exec(url.pathname)![1]!),
    },
  ],
};
