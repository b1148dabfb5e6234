/**
 * Markdown is rendered off the request thread (QUALITY.md R4). remark's parser is slow on large
 * bodies and superlinear on some shapes (a 200,000-character body took 35 s on a loaded 2-core
 * machine): on the gateway's event loop that stalled every other request for as long. Here a small
 * pool of worker processes (at a lower scheduling priority in production) renders, one job per worker at a time,
 * each job under a time limit: past it the worker is killed (the only way to stop a synchronous
 * parse), replaced, and the caller gets a MarkdownTimeoutError. Everything else in the gateway keeps
 * answering meanwhile.
 *
 * Image dimensions and alt text come from the media library through the caller's PocketBase client,
 * which stays on the main thread: the worker asks for them mid-render (`images` messages).
 */
import { fork, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { ImageInfo, RenderOptions } from "./render.ts";

export type ToWorker =
  | { type: "job"; id: number; kind: "render"; markdown: string; siteOrigin: string; resolveImages: boolean }
  | { type: "job"; id: number; kind: "plainText"; markdown: string; max: number | undefined }
  | { type: "job"; id: number; kind: "imageUrls"; markdown: string }
  | { type: "images"; id: number; infos: Array<[string, ImageInfo]> | null };

export type FromWorker =
  | { type: "ready" }
  | { type: "images"; id: number; urls: string[] }
  | { type: "done"; id: number; result: string | string[] }
  | { type: "error"; id: number; name: string; message: string };

type JobMessage = Extract<ToWorker, { type: "job" }>;
type JobInput = JobMessage extends infer M
  ? M extends { id: number }
    ? Omit<M, "id" | "type">
    : never
  : never;

/** A render that went past the time limit (its worker was stopped). */
export class MarkdownTimeoutError extends Error {
  readonly limitMs: number;

  constructor(limitMs: number) {
    super(`Rendering this Markdown took longer than ${limitMs / 1000} s and was stopped.`);
    this.limitMs = limitMs;

    this.name = "MarkdownTimeoutError";
  }
}

interface Job {
  id: number;
  message: JobMessage;
  timeoutMs: number;
  resolveImages?: RenderOptions["resolveImages"];
  /** The first error of an image lookup, reported instead of the render's own. */
  imageError?: unknown;
  resolve: (result: string | string[]) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: ChildProcess;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

export interface MarkdownPoolOptions {
  /** Worker threads (default: cores − 1, at least 2, at most 4). */
  size?: number;
  /** Time limit per job once a worker has started it (default 15 s). */
  timeoutMs?: number;
}

export const DEFAULT_RENDER_TIMEOUT_MS = 15_000;
/** Bodies longer than this are "long": they may not take the last free worker. */
export const LONG_JOB_CHARS = 20_000;
const isLong = (job: Job) => job.message.markdown.length > LONG_JOB_CHARS;
/**
 * Scheduling priority of the workers (0 normal … 19 lowest). In production 10: below the gateway and
 * PocketBase, so a long render takes the CPU they leave. Elsewhere 0: on a development or CI machine
 * shared with many other processes a lowered priority starves the renders (a nice-10 process gets
 * about 1 % of a core at load 20) and every page waits. MARKDOWN_WORKER_NICENESS overrides both.
 */
const workerNiceness = () =>
  Number(process.env.MARKDOWN_WORKER_NICENESS ?? (process.env.NODE_ENV === "production" ? 10 : 0));

export class MarkdownPool {
  readonly size: number;
  readonly timeoutMs: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private readyWaiters: Array<() => void> = [];
  private closed = false;

  constructor(options: MarkdownPoolOptions = {}) {
    this.size = options.size ?? Math.min(4, Math.max(2, availableParallelism() - 1));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  }

  /** renderMarkdown in a worker (see render.ts). */
  render(markdown: string, options: RenderOptions, timeoutMs = this.timeoutMs): Promise<string> {
    return this.submit(
      { kind: "render", markdown, siteOrigin: options.siteOrigin, resolveImages: !!options.resolveImages },
      timeoutMs,
      options.resolveImages,
    ) as Promise<string>;
  }

  /** plainText in a worker. */
  plainText(markdown: string, max?: number): Promise<string> {
    return this.submit({ kind: "plainText", markdown, max }, this.timeoutMs) as Promise<string>;
  }

  /** imageUrls in a worker. */
  imageUrls(markdown: string): Promise<string[]> {
    return this.submit({ kind: "imageUrls", markdown }, this.timeoutMs) as Promise<string[]>;
  }

  /** Starts every worker now (they otherwise start on first use); resolves once all are ready. */
  warm(): Promise<void> {
    while (!this.closed && this.slots.length < this.size) this.slots.push(this.spawn());
    return new Promise((resolve) => {
      this.readyWaiters.push(resolve);
      this.checkReady();
    });
  }

  /** Jobs waiting for a worker, and workers busy (for tests and diagnostics). */
  stats(): { queued: number; busy: number; workers: number } {
    return {
      queued: this.queue.length,
      busy: this.slots.filter((s) => s.job).length,
      workers: this.slots.length,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    for (const job of this.queue.splice(0)) job.reject(new Error("The Markdown renderer is shut down."));
    await Promise.all(
      this.slots.splice(0).map((slot) => this.stop(slot, new Error("The Markdown renderer is shut down."))),
    );
  }

  private submit(
    input: JobInput,
    timeoutMs: number,
    resolveImages?: RenderOptions["resolveImages"],
  ): Promise<string | string[]> {
    if (this.closed) return Promise.reject(new Error("The Markdown renderer is shut down."));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.queue.push({
        id,
        message: { ...input, type: "job", id } as JobMessage,
        timeoutMs,
        resolveImages,
        resolve,
        reject,
      });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (;;) {
      // Long bodies may hold all workers but one: short jobs (most pages, summaries) always find a
      // worker, even while long renders run.
      const longBusy = this.slots.filter((s) => s.job && isLong(s.job)).length;
      const canRun = (job: Job) => !isLong(job) || longBusy < Math.max(1, this.size - 1);
      const index = this.queue.findIndex(canRun);
      if (index < 0) return;
      const slot = this.slots.find((s) => s.ready && !s.job);
      if (!slot) {
        const starting = this.slots.filter((s) => !s.ready).length;
        if (this.slots.length < this.size && starting < this.queue.filter(canRun).length) {
          this.slots.push(this.spawn());
          continue;
        }
        return;
      }
      const job = this.queue.splice(index, 1)[0]!;
      slot.job = job;
      slot.timer = setTimeout(() => this.expire(slot, job), job.timeoutMs);
      slot.worker.send(job.message);
    }
  }

  private spawn(): Slot {
    // A child process rather than a thread, so that it can run at a lower scheduling priority: a
    // long render then takes the CPU the request thread leaves, instead of half of it (measured with
    // `npm run bench:markdown`). No flags of the parent (test runners, inspectors) are passed on.
    // It starts at normal priority (loading its modules is part of answering the first request) and
    // lowers its own priority once ready (worker.ts).
    const worker = fork(fileURLToPath(new URL("./worker-entry.mjs", import.meta.url)), [], {
      execArgv: [],
      env: { ...process.env, FLOCK_MARKDOWN_WORKER_NICENESS: String(workerNiceness()) },
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    // Idle workers never keep the gateway's process alive.
    worker.unref();
    worker.channel?.unref();
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    worker.on("message", (message: FromWorker) => this.onMessage(slot, message));
    worker.on("error", (error) => this.replace(slot, error));
    worker.on("exit", (code, signal) => {
      if (this.slots.includes(slot))
        this.replace(slot, new Error(`The Markdown worker stopped (${signal ?? `exit code ${code}`}).`));
    });
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === "ready") {
      slot.ready = true;
      this.dispatch();
      this.checkReady();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    if (message.type === "images") {
      const lookup = job.resolveImages
        ? job.resolveImages(message.urls)
        : Promise.resolve(new Map<string, ImageInfo>());
      lookup.then(
        (infos) =>
          slot.job === job &&
          slot.worker.send({ type: "images", id: job.id, infos: [...infos] } satisfies ToWorker),
        (error: unknown) => {
          job.imageError ??= error;
          if (slot.job === job)
            slot.worker.send({ type: "images", id: job.id, infos: null } satisfies ToWorker);
        },
      );
      return;
    }
    this.finish(slot);
    if (message.type === "done") job.resolve(message.result);
    else if (job.imageError !== undefined) job.reject(job.imageError);
    else
      job.reject(
        Object.assign(
          message.name === "TypeError" ? new TypeError(message.message) : new Error(message.message),
          { name: message.name },
        ),
      );
  }

  private checkReady(): void {
    if (this.slots.length < this.size || this.slots.some((s) => !s.ready)) return;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    this.dispatch();
  }

  /** The job ran out of time: stop its worker (a synchronous parse cannot be interrupted otherwise). */
  private expire(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    console.error(
      `[markdown] a ${job.message.kind} job (${job.message.markdown.length} characters) took over ${job.timeoutMs} ms: stopped its worker`,
    );
    this.replace(slot, new MarkdownTimeoutError(job.timeoutMs));
  }

  private replace(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    void this.stop(slot, error);
    if (!slot.ready) {
      // The worker could not even start (a broken install): fail what waits rather than respawn in a loop.
      console.error("[markdown] a worker failed to start:", error);
      for (const job of this.queue.splice(0)) job.reject(error);
      for (const resolve of this.readyWaiters.splice(0)) resolve();
      return;
    }
    this.dispatch();
  }

  private async stop(slot: Slot, error: unknown): Promise<void> {
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = null;
    job?.reject(error);
    if (slot.worker.exitCode !== null || slot.worker.signalCode !== null) return;
    const exited = new Promise((resolve) => slot.worker.once("exit", resolve));
    slot.worker.kill("SIGKILL");
    await exited;
  }
}

/** The gateway's pool (workers start on first use). MARKDOWN_WORKERS sets its size. */
export const markdownPool = new MarkdownPool({
  size: process.env.MARKDOWN_WORKERS ? Math.max(1, Number(process.env.MARKDOWN_WORKERS)) : undefined,
});
