import { defineConfig } from "vitest/config";

// Three tiers (see CONTRIBUTING.md): unit (pure, fast), integration (the gateway in-process against
// a real PocketBase started by the global setup), e2e (the whole app in a real Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["gateway/src/**/*.test.ts", "shared/src/**/*.test.ts", "web/src/**/*.test.{ts,tsx}", "web/*.test.ts", "scripts/**/*.test.ts"],
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
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
