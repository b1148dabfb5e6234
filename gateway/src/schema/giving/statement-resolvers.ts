import type { GatewayContext } from "../../context.ts";
import { pbCall, unauthenticated } from "../../errors.ts";
import { requireAbility } from "../../access/guards.ts";
import { findById } from "../../pocketbase/records-io.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";
import type { GivingStatementRunRecord } from "../../pocketbase/records.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { runStatus, startStatementRun } from "./statement-runs.ts";
import { runZipPath } from "./statement-routes.ts";
import { checkPeriod } from "./statements.ts";

/*
 * Runs of statements for all donors (statement-runs.ts) through GraphQL: start one, follow its progress,
 * download its zip. Reads go with the caller's token: giving_statement_runs' rules open them to finance
 * (viewGiving) only.
 */

const day = (value: string) => value.slice(0, 10);

const runDeps = (ctx: GatewayContext) => ({
  pbUrl: ctx.config.pbUrl,
  system: ctx.system,
});

export const givingStatementResolvers: Resolvers = {
  GivingStatementRun: {
    from: (run) => day(run.from),
    to: (run) => day(run.to),
    status: (run) => runStatus(run),
    unitsTotal: (run) => run.unitsTotal || 0,
    unitsDone: (run) => run.unitsDone || 0,
    // statement-routes.ts streams it, reading the run and its protected file as the caller.
    downloadUrl: (run, _, ctx) =>
      run.status === "done" && run.statements ? `${ctx.config.publicUrl}${runZipPath(run.id)}` : null,
    error: (run) =>
      run.error ||
      (runStatus(run) === "failed" ? "The run stopped before it finished: start it again." : null),
    createdAt: (run) => fromPocketBaseDate(run.created),
  },
  Query: {
    async givingStatementRun(_, { id }, ctx) {
      await requireAbility(ctx, "viewGiving");
      return findById<GivingStatementRunRecord>(ctx.pb, "giving_statement_runs", id);
    },
    async givingStatementRuns(_, __, ctx) {
      await requireAbility(ctx, "viewGiving");
      const page = await pbCall(() =>
        ctx.pb
          .collection("giving_statement_runs")
          .getList<GivingStatementRunRecord>(1, 20, { sort: "-created,-id", skipTotal: true }),
      );
      return page.items;
    },
  },
  Mutation: {
    async startGivingStatementRun(_, args, ctx) {
      const user = await requireAbility(ctx, "viewGiving");
      const period = checkPeriod(args);
      const token = ctx.pb.authStore.token;
      if (!token) throw unauthenticated();
      return startStatementRun(runDeps(ctx), token, user.id, period);
    },
  },
};
