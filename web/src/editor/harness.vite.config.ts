// Builds web/editor-harness.html, the page e2e/editor-roundtrip.e2e.test.ts drives: the app's own
// Vite config (same plugins and target) with the harness as the only input. Not used by the app build.
//   vite build --config src/editor/harness.vite.config.ts --outDir <dir>
import { fileURLToPath } from "node:url";
import { mergeConfig } from "vite";
import app from "../../vite.config.ts";

export default mergeConfig(app, {
  root: fileURLToPath(new URL("../..", import.meta.url)),
  build: { rolldownOptions: { input: fileURLToPath(new URL("../../editor-harness.html", import.meta.url)) } },
});
