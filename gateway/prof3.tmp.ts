import { MarkdownPool } from "./src/markdown/pool.ts";
for (let i = 0; i < 3; i++) {
  const p = new MarkdownPool({ size: 1 });
  const t = performance.now();
  await p.render("x", { siteOrigin: "https://a.org" });
  console.log("first render (spawn+ready)", (performance.now() - t).toFixed(0));
  const t2 = performance.now();
  await p.render("y *z*", { siteOrigin: "https://a.org" });
  console.log("second render", (performance.now() - t2).toFixed(2));
  await p.close();
}
