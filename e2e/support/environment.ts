// What e2e/global-setup.ts prepares in the background (a church per worker, the editor test page),
// as the test files read it, once the setup file (wait-for-environment.ts) has waited for it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { forThisWorker } from "../../scripts/lib/test-workers.ts";
import type { StackReady } from "./stack-process.ts";

export const READY_FILE = "ready.json";
export const FAILED_FILE = "failed.txt";

export interface E2eEnvironment {
  /** One church per worker, indexed by VITEST_POOL_ID - 1. */
  stacks: StackReady[];
  /** The editor test page (web/editor-harness.html). */
  editorHarnessUrl: string;
  /** The fake of Stripe's API every church's gateway is pointed at (scripts/lib/fake-stripe.ts). */
  stripeUrl: string;
}

// Preparing the churches takes tens of seconds (seeding is the slowest part); this bound only turns
// a hang into a failure that says what it waited for.
const PREPARATION_LIMIT_MS = 10 * 60_000;

let environment: E2eEnvironment | null = null;

/** Resolves once the churches serve; rejects with the setup's own error when preparing them failed. */
export async function e2eReady(): Promise<E2eEnvironment> {
  const dir = inject("e2eStateDir");
  const deadline = Date.now() + PREPARATION_LIMIT_MS;
  while (!environment) {
    if (existsSync(join(dir, FAILED_FILE)))
      throw new Error(`Preparing the e2e churches failed:\n${readFileSync(join(dir, FAILED_FILE), "utf8")}`);
    if (existsSync(join(dir, READY_FILE)))
      environment = JSON.parse(readFileSync(join(dir, READY_FILE), "utf8")) as E2eEnvironment;
    else if (Date.now() > deadline)
      throw new Error(`The e2e churches were not ready after ${PREPARATION_LIMIT_MS / 60_000} minutes.`);
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return environment;
}

function ready(): E2eEnvironment {
  if (!environment) throw new Error("The e2e environment is read before wait-for-environment.ts awaited it.");
  return environment;
}

/** This file's church: its worker's own. */
export const thisStack = (): StackReady => forThisWorker(ready().stacks, "e2e church");
export const editorHarnessUrl = (): string => ready().editorHarnessUrl;
export const fakeStripeUrl = (): string => ready().stripeUrl;
