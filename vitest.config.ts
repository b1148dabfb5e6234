import { defineConfig } from "vitest/config";

// Three tiers (see CONTRIBUTING.md), run one after another (sequence.groupOrder), each tier's files
// side by side: unit (pure, fast), integration (the gateway in-process against a real PocketBase),
// e2e (the whole app in a real Chromium). An integration worker has a PocketBase of its own and an e2e
// worker a church of its own (their global setups start one per worker), so files in different
// workers never share a record or a setting; files in one worker run one after another.
//
// Workers, for the 2-core CI machine: in an integration file the test and its PocketBase take turns
// (a request, its answer), so one file keeps about one core busy and three keep both busy; e2e files
// are CPU-bound (Chromium, the app, axe), and a third browser only stretched every journey towards
// its timeout. FLOCK_INT_WORKERS / FLOCK_E2E_WORKERS override them
// (a bigger machine, a measurement).
const workers = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "gateway/src/**/*.test.ts",
            "web/src/**/*.test.{ts,tsx}",
            "web/*.test.ts",
            "scripts/**/*.test.ts",
            "shared/src/**/*.test.ts",
          ],
          environment: "node",
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "integration",
          include: ["gateway/test/**/*.int.test.ts"],
          globalSetup: ["gateway/test/global-setup.ts"],
          setupFiles: ["gateway/test/no-leftover-jobs.ts"],
          maxWorkers: workers("FLOCK_INT_WORKERS", 3),
          // A worker keeps its modules from one file to the next: loading the gateway took each file
          // ~9 s on the shared 2-core machine (import 462 s of a 653 s run; 84 s of a 394 s run without).
          // Each file makes its own data and its own gateway, and leaves no timer or mock behind.
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.test.ts"],
          globalSetup: ["e2e/global-setup.ts"],
          setupFiles: ["e2e/support/wait-for-environment.ts"],
          maxWorkers: workers("FLOCK_E2E_WORKERS", 2),
          // After unit and integration, not beside them: on a 2-core machine the integration files
          // (hundreds of PocketBase round trips) would take the CPU from Chromium and the app under
          // test, and a browser journey would measure them instead. Its churches are prepared in the
          // background meanwhile (global-setup.ts); each file waits for its own (the setup file).
          sequence: { groupOrder: 2 },
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // expect.poll waits for what a person would see next. Its default of 1 s made every journey a
          // hidden speed assertion (a first page on a busy machine failed at "Latest news"); speed is
          // measured where it is budgeted (npm run size, npm run lighthouse, the benches).
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
