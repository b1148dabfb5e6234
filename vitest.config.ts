import { defineConfig } from "vitest/config";

// Three tiers (see CONTRIBUTING.md): unit (pure, fast), integration (the gateway in-process against
// a real PocketBase started by the global setup), e2e (the whole app in a real Chromium).
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
        },
      },
      {
        test: {
          name: "integration",
          include: ["gateway/test/**/*.int.test.ts"],
          globalSetup: ["gateway/test/global-setup.ts"],
          // The files share one PocketBase and its settings singleton: settings and authorization
          // tests rename the church and close sign-up for a moment, which other files read. One file
          // at a time keeps that deterministic (the run stays well under a minute).
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.test.ts"],
          globalSetup: ["e2e/global-setup.ts"],
          fileParallelism: false,
          // After unit and integration, not beside them: on a 2-core machine the integration files
          // (hundreds of PocketBase round trips, deliberate 200,000-character renders) would take the
          // CPU from Chromium and the app under test, and a browser journey would measure them instead.
          sequence: { groupOrder: 1 },
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
