import { it } from "vitest";
import { createUser, pbAs, restStatus } from "./helpers.ts";
it("probe", async () => {
  const member = await createUser();
  const admin = await createUser({ roles: ["Administrator"] });
  for (const [who, u] of [["member", member], ["admin", admin]] as const) {
    const pb = pbAs(u);
    for (const q of [member.email, member.email.split("@")[0], "test.example", "@test", member.email.slice(0, 10)]) {
      const r = await pb.collection("users").getList(1, 5, { filter: pb.filter("(email ~ {:q} || name ~ {:q})", { q }) }).catch((e) => e.status);
      const r2 = await pb.collection("users").getList(1, 5, { filter: pb.filter("email ~ {:q}", { q }) }).catch((e) => e.status);
      const r3 = await pb.collection("users").getList(1, 5, { filter: pb.filter("email = {:q}", { q }) }).catch((e) => e.status);
      console.log(who, q, typeof r === "number" ? r : r.totalItems, typeof r2 === "number" ? r2 : r2.totalItems, typeof r3 === "number" ? r3 : r3.totalItems);
    }
  }
});
