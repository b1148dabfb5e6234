import { startStack } from "./lib/stack.ts";
const [dist, port, pbPort] = process.argv.slice(2);
const stack = await startStack({ dataDir: "/tmp/web-seo-pb", port: Number(port), pbPort: Number(pbPort), webDist: dist!, demo: true, quiet: true });
console.log("READY", stack.url);
process.on("SIGTERM", () => void stack.stop().then(() => process.exit(0)));
