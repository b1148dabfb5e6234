/**
 * The authorization-table kit: one way to write QUALITY.md S1's tables (persona × collection ×
 * operation), used by every gateway/test/authorization*.int.test.ts.
 *
 * A table names, for each collection and operation, what every persona may do (a cell). Each cell is
 * checked twice, through PocketBase's REST API (the API rules are the authorization) and through the
 * gateway's GraphQL operation, so a rule change the gateway's mirror misses fails a test. A cell with no
 * check in one channel needs a written reason (`gaps`); a test fails on a cell with neither.
 *
 *   import { A, D, columns, describeAuthorizationTable, expectGql, expectRest } from "./authorization-table.ts";
 *
 *   const PERSONAS = ["anonymous", "member", "editor", "admin"] as const;
 *   type Persona = (typeof PERSONAS)[number];
 *   const { cells, everyone } = columns(PERSONAS);      // cells(D, D, A, A): one value per persona, in order
 *
 *   const TABLE = {
 *     posts: { viewDraft: cells(D, D, A, A), create: cells(D, D, A, A), viewPublished: everyone(A) },
 *   };
 *
 *   describeAuthorizationTable({
 *     personas: PERSONAS,
 *     table: TABLE,
 *     rest: { posts: { async viewDraft(persona, expected) { expectRest(expected, await restStatus(…)); }, … } },
 *     graphql: { posts: { async viewDraft(persona, expected) { expectGql(expected, persona, await gql(persona).execute(…)); } } },
 *     gaps: { graphql: { posts: { create: "why GraphQL cannot check it" } } },   // or one string for a whole channel
 *   });
 *
 * That declares, per channel and collection, `describe("posts through PocketBase's REST API")` (or
 * "through GraphQL") with one test per cell, "viewDraft as member → deny", plus one test that every
 * cell has a persona value and, in each channel, a check or a reason. Cell values are "allow" / "deny"
 * (A / D) unless the table widens them (`columns(PERSONAS).cells<"all" | "none">(…)`); a check receives
 * the persona and the cell's value. `as` turns a persona into whatever the checks want instead (a
 * client pair, say), per channel; `title` tells apart two tables in one file. With widened values or
 * `as`, give the type parameters: describeAuthorizationTable<Persona, Expected, typeof TABLE, Actor>(…)
 * (authorization.int.test.ts). expectRest: 200 when allowed, 400/401/403/404 when refused;
 * expectGql(expected, persona, result, refusedAs = "FORBIDDEN"): no error when allowed, else
 * UNAUTHENTICATED for "anonymous" and one of refusedAs for everyone else.
 *
 * Tables whose checks need more than one persona × operation (list exactly these targets, realtime)
 * keep their own runners; they use `columns`, `Cells` and `tableCells` for the values
 * (realtime: ./realtime-recording.ts).
 */
import { describe, expect, it } from "vitest";
import { errorCode, type GqlResult } from "./helpers.ts";

/** A cell's value in most tables. */
export type Verdict = "allow" | "deny";
export const A = "allow" as const;
export const D = "deny" as const;

/** One row of a table: a value for every persona. */
export type Cells<P extends string, E extends string = Verdict> = Record<P, E>;
/** collection → operation → cells. */
export type Table<P extends string, E extends string = Verdict> = Record<string, Record<string, Cells<P, E>>>;
/** Checks one cell: `persona` (or what `as` made of it) attempts the operation, `expected` is the cell's value. */
export type Check<X, E extends string = Verdict> = (persona: X, expected: E) => Promise<void>;
export type Checks<T, X, E extends string = Verdict> = {
  [C in keyof T]?: { [O in keyof T[C]]?: Check<X, E> };
};
/** Why a channel cannot check a cell: per cell, one reason for a collection, or one for the whole channel. */
export type Gaps<T> = string | { [C in keyof T]?: string | { [O in keyof T[C]]?: string } };
export type Channel = "rest" | "graphql";

type Tuple<T, N extends number, R extends T[] = []> = R["length"] extends N ? R : Tuple<T, N, [...R, T]>;

/** Row builders for a persona list: `cells(D, A, …)` takes one value per persona, in the list's order. */
export function columns<const P extends readonly string[]>(personas: P) {
  type Persona = P[number];
  return {
    cells: <E extends string = Verdict>(...values: Tuple<E, P["length"]>): Cells<Persona, E> =>
      Object.fromEntries(personas.map((persona, i) => [persona, (values as readonly E[])[i]])) as Cells<
        Persona,
        E
      >,
    everyone: <E extends string>(value: E): Cells<Persona, E> =>
      Object.fromEntries(personas.map((persona) => [persona, value])) as Cells<Persona, E>,
  };
}

export interface Cell<P extends string, E extends string = Verdict> {
  collection: string;
  operation: string;
  persona: P;
  expected: E;
}

/** Every cell of a table, collection by collection, operation by operation, persona by persona. */
export function tableCells<P extends string, E extends string>(
  personas: readonly P[],
  table: Table<P, E>,
): Array<Cell<P, E>> {
  return Object.entries(table).flatMap(([collection, operations]) =>
    Object.entries(operations).flatMap(([operation, byPersona]) =>
      personas.map((persona) => ({ collection, operation, persona, expected: byPersona[persona] })),
    ),
  );
}

/** PocketBase's answer to a cell: allowed → 200; refused → 400 (create), 401, 403 or 404 (never 200). */
export function expectRest(expected: Verdict, status: number): void {
  if (expected === A) expect(status).toBe(200);
  else expect([400, 401, 403, 404]).toContain(status);
}

/**
 * The gateway's refusal: UNAUTHENTICATED for the "anonymous" persona (a visitor), otherwise one of
 * `refusedAs` (FORBIDDEN unless told).
 */
export function expectGqlRefused(
  persona: string,
  result: Pick<GqlResult<unknown>, "errors">,
  refusedAs: string | readonly string[] = "FORBIDDEN",
): void {
  const codes =
    persona === "anonymous" ? ["UNAUTHENTICATED"] : typeof refusedAs === "string" ? [refusedAs] : refusedAs;
  expect(codes, JSON.stringify(result.errors)).toContain(errorCode(result));
}
/** The gateway's answer to a write: allowed → no error; refused → as expectGqlRefused. */
export function expectGql(
  expected: Verdict,
  persona: string,
  result: Pick<GqlResult<unknown>, "errors">,
  refusedAs: string | readonly string[] = "FORBIDDEN",
): void {
  if (expected === A) expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  else expectGqlRefused(persona, result, refusedAs);
}

const CHANNEL_TITLE: Record<Channel, string> = {
  rest: "through PocketBase's REST API",
  graphql: "through GraphQL",
};

/**
 * Declares the table's tests (see the top of this file): per channel, one describe per collection and
 * one test per cell; and a test that every cell has a value per persona and, in each channel, a check
 * or a reason.
 */
export function describeAuthorizationTable<
  P extends string,
  E extends string = Verdict,
  T extends Table<P, E> = Table<P, E>,
  X = P,
>(spec: {
  personas: readonly P[];
  table: T;
  rest?: Checks<T, X, E>;
  graphql?: Checks<T, X, E>;
  gaps?: { rest?: Gaps<T>; graphql?: Gaps<T> };
  /** What the checks receive for a persona, per channel (default: the persona itself). */
  as?: (persona: P, channel: Channel) => X;
  /** Added to the describe titles, for a file with more than one table. */
  title?: string;
}): void {
  const cells = tableCells(spec.personas, spec.table);
  const checkOf = (channel: Channel, collection: string, operation: string) =>
    (spec[channel] as Record<string, Record<string, Check<X, E> | undefined> | undefined> | undefined)?.[
      collection
    ]?.[operation];
  const gapOf = (channel: Channel, collection: string, operation: string) => {
    const gaps = spec.gaps?.[channel];
    if (typeof gaps === "string") return gaps;
    const ofCollection = (
      gaps as Record<string, string | Record<string, string | undefined> | undefined> | undefined
    )?.[collection];
    return typeof ofCollection === "string" ? ofCollection : ofCollection?.[operation];
  };
  const suffix = spec.title ? ` (${spec.title})` : "";

  describe(`every cell has an expectation and, in each channel, a check or a reason why not${suffix}`, () => {
    it("covers every persona of every operation", () => {
      for (const [collection, operations] of Object.entries(spec.table)) {
        for (const [operation, byPersona] of Object.entries(operations)) {
          expect(Object.keys(byPersona).sort(), `${collection} ${operation}`).toEqual(
            [...spec.personas].sort(),
          );
          for (const channel of ["rest", "graphql"] as const) {
            const check = !!checkOf(channel, collection, operation);
            const gap = !!gapOf(channel, collection, operation);
            expect(check || gap, `${collection} ${operation}: a ${channel} check or a reason`).toBe(true);
          }
        }
      }
      // No check for a cell the table does not have (a renamed row would otherwise go unchecked).
      for (const channel of ["rest", "graphql"] as const) {
        for (const [collection, operations] of Object.entries(
          (spec[channel] ?? {}) as Record<string, Record<string, unknown>>,
        )) {
          for (const operation of Object.keys(operations))
            expect(
              spec.table[collection]?.[operation],
              `${channel} check ${collection} ${operation}`,
            ).toBeDefined();
        }
      }
    });
  });

  for (const channel of ["rest", "graphql"] as const) {
    const collections = Object.keys(spec.table).filter((collection) =>
      cells.some((cell) => cell.collection === collection && checkOf(channel, collection, cell.operation)),
    );
    if (!collections.length) continue;
    describe.each(collections)(`%s ${CHANNEL_TITLE[channel]}${suffix}`, (collection) => {
      const rows = cells.filter(
        (cell) => cell.collection === collection && checkOf(channel, collection, cell.operation),
      );
      it.each(rows)("$operation as $persona → $expected", async ({ operation, persona, expected }) => {
        const actor = spec.as ? spec.as(persona, channel) : (persona as unknown as X);
        await checkOf(channel, collection, operation)!(actor, expected);
      });
    });
  }
}
