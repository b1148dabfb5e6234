import { fork } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { once } from "node:events";
import { Zip, ZipPassThrough } from "fflate";
import type PocketBase from "pocketbase";
import { slugify } from "@flock/shared/slug";
import { pbCall } from "../../errors.ts";
import { createUserClient } from "../../pocketbase/client.ts";
import { parsePocketBaseDate, pocketBaseDay, toPocketBaseDate } from "../../pocketbase/dates.ts";
import type { GivingStatementRunRecord, SettingsRecord } from "../../pocketbase/records.ts";
import { streamRecordUpdate } from "../../pocketbase/stream-upload.ts";
import { statementPdf, type StatementBrand } from "./statement-pdf.ts";
import { readBrand, readDonors, readFunds, readPeriodGifts, UNITS_PER_READ } from "./statement-data.ts";
import {
  groupByUnit,
  statementTotals,
  unitKey,
  type GivingUnit,
  type StatementPeriod,
} from "./statements.ts";

/*
 * "Statements for all donors" (issue 29): one PDF per giving unit with gifts in a period, in one zip. The
 * run's state lives in giving_statement_runs (pb_migrations/1732650000_giving_statements.js), so any
 * gateway process answers its progress and the zip is a protected file only finance opens.
 *
 * The run is started with the treasurer's own token (the run's create rule wants finance, viewGiving,
 * as the gateway does); its worker reads the period's gifts, names, addresses and funds as the system
 * (statement-data.ts#readPeriodGifts says why that is the same set). Units go through in batches of 50:
 * their names and addresses, then their PDFs, each appended to the zip on disk as it is made.
 *
 * The work runs in a child process (statement-worker.ts), as Markdown renders do: a run is a minute of
 * CPU for a large church, and the gateway's request thread keeps answering meanwhile; the child runs at
 * a lower priority and gives its memory back when it ends.
 */

/** A run whose heartbeat is older than this was interrupted (its gateway stopped). */
export const RUN_STALE_MS = 2 * 60_000;
/** How often progress is written (at most): readers poll; every unit would be a write per PDF. */
const PROGRESS_EVERY_MS = 1_000;

/** What a run's worker is told: where PocketBase is, the system's token, the run and its period. */
export interface StatementJob {
  pbUrl: string;
  systemToken: string;
  runId: string;
  period: StatementPeriod;
}

/** Runs started by this process and not finished: tests and shutdown wait for them. */
const inFlight = new Set<Promise<void>>();

/** Resolves when every run this process started has finished. */
export async function statementRunsSettled(): Promise<void> {
  while (inFlight.size) await Promise.allSettled([...inFlight]);
}

/** A run's status as readers see it: a run whose job stopped answering is failed, not running forever. */
export function runStatus(
  run: GivingStatementRunRecord,
  now = Date.now(),
): GivingStatementRunRecord["status"] {
  if (run.status !== "running") return run.status;
  const beat = run.heartbeatAt || run.created;
  return now - parsePocketBaseDate(beat).getTime() > RUN_STALE_MS ? "failed" : "running";
}

/**
 * Start a run as the caller (`callerToken`: the run's create rule decides who may) and work it in a
 * worker process; answers the run as created.
 */
export async function startStatementRun(
  deps: { pbUrl: string; system: { get(): Promise<PocketBase> } },
  callerToken: string,
  callerId: string,
  period: StatementPeriod,
): Promise<GivingStatementRunRecord> {
  const pb = createUserClient(deps.pbUrl, callerToken);
  const run = await pbCall(() =>
    pb.collection("giving_statement_runs").create<GivingStatementRunRecord>({
      from: pocketBaseDay(period.from),
      to: pocketBaseDay(period.to),
      status: "running",
      createdBy: callerId,
    }),
  );
  const system = await deps.system.get();
  const job = runInWorker({
    pbUrl: deps.pbUrl,
    systemToken: system.authStore.token,
    runId: run.id,
    period,
  }).finally(() => inFlight.delete(job));
  inFlight.add(job);
  return run;
}

/** The worker process for one run; resolves when it has ended (a run it left unfinished is marked failed). */
function runInWorker(job: StatementJob): Promise<void> {
  // No flags of the parent (test runners, inspectors) are passed on; the entry finds a TypeScript loader.
  // --expose-gc: the run collects after each batch of statements (makeStatements).
  const worker = fork(fileURLToPath(new URL("./statement-worker-entry.mjs", import.meta.url)), [], {
    execArgv: ["--expose-gc"],
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  worker.send(job);
  return new Promise((resolve) => {
    worker.once("exit", (code, signal) => {
      if (code === 0) return resolve();
      console.error(`[giving] statement worker stopped (${signal ?? `exit code ${code}`})`, job.runId);
      void markFailed(createUserClient(job.pbUrl, job.systemToken), job.runId).finally(resolve);
    });
  });
}

const FAILED_MESSAGE =
  "The statements could not be made. Try again; if it fails again, tell the site's administrator.";

const markFailed = (system: PocketBase, runId: string) =>
  pbCall(() =>
    system
      .collection("giving_statement_runs")
      .update(runId, { status: "failed", error: FAILED_MESSAGE, heartbeatAt: toPocketBaseDate(new Date()) }),
  ).catch(() => undefined);

/** The zip's name of one statement: readable, and unique by the unit's id. */
const entryName = (unit: GivingUnit, donorName: string) =>
  `${slugify(donorName) || unit.kind}-${unit.id}.pdf`;

/** A PDF's bytes, as pdfkit streams them. */
async function pdfBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = once(doc, "end");
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** The run itself (in the worker): every unit's statement into the zip, then the zip onto the run. */
export async function makeStatements(job: StatementJob): Promise<void> {
  const { pbUrl, runId, period } = job;
  const system = createUserClient(pbUrl, job.systemToken);
  const progress = (fields: Partial<GivingStatementRunRecord>) =>
    pbCall(() =>
      system.collection("giving_statement_runs").update(runId, {
        ...fields,
        heartbeatAt: toPocketBaseDate(new Date()),
      }),
    );
  const dir = await mkdtemp(join(tmpdir(), "flock-statements-"));
  try {
    // Every gift of the period in one pass, grouped by unit (50,000 gifts are a few tens of MB here).
    const byUnit = groupByUnit(await readPeriodGifts(system, period));
    const units = [...byUnit.values()].map((group) => group.unit);
    await progress({ unitsTotal: units.length, unitsDone: 0 });
    const [funds, brand]: [Awaited<ReturnType<typeof readFunds>>, StatementBrand] = await Promise.all([
      readFunds(system),
      pbCall(() => system.collection("settings").getList<SettingsRecord>(1, 1)).then((page) =>
        readBrand(pbUrl, page.items[0]!),
      ),
    ]);

    const path = join(dir, "statements.zip");
    const file = createWriteStream(path);
    const zip = new Zip((error, chunk, final) => {
      if (error) file.destroy(error);
      else {
        file.write(chunk);
        if (final) file.end();
      }
    });
    let done = 0;
    let wroteAt = Date.now();
    for (let i = 0; i < units.length; i += UNITS_PER_READ) {
      const batch = units.slice(i, i + UNITS_PER_READ);
      const donors = await readDonors(system, batch);
      for (const unit of batch) {
        const key = unitKey(unit);
        const donor = donors.get(key) ?? { name: "", addressLines: [] };
        const totals = statementTotals(byUnit.get(key)?.gifts ?? [], funds, period);
        const entry = new ZipPassThrough(entryName(unit, donor.name));
        zip.add(entry);
        // PDFs are compressed already: stored in the zip as they are.
        entry.push(await pdfBytes(statementPdf(brand, donor, period, totals)), true);
        done += 1;
        if (file.writableNeedDrain) await once(file, "drain");
      }
      // pdfkit's documents leave native memory that only a full collection frees, and a small heap
      // rarely has one: without this the worker grew 0.8 MB a statement (the worker runs --expose-gc).
      (globalThis as { gc?: () => void }).gc?.();
      if (Date.now() - wroteAt >= PROGRESS_EVERY_MS) {
        await progress({ unitsDone: done });
        wroteAt = Date.now();
      }
    }
    zip.end();
    if (!file.writableFinished) await once(file, "finish");
    const { size } = await stat(path);
    await streamRecordUpdate(
      pbUrl,
      job.systemToken,
      "giving_statement_runs",
      runId,
      { status: "done", unitsDone: done, heartbeatAt: toPocketBaseDate(new Date()) },
      {
        field: "statements",
        path,
        name: `statements-${period.from}-${period.to}.zip`,
        type: "application/zip",
        size,
      },
    );
  } catch (error) {
    console.error("[giving] statement run", runId, error);
    await markFailed(system, runId);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
