/**
 * Registration capacity under concurrency (issue 14): the PocketBase hook decides confirmed or
 * waitlisted inside each write's transaction, so parallel registrations can never overbook, the
 * waitlist is promoted in order, and a party larger than the seats left is split.
 */
import { describe, expect, it } from "vitest";
import { pbAs, system } from "./helpers.ts";
import { countsOf, createEvent, registrationBody } from "./event-support.ts";

describe("registration capacity in the PocketBase hook", () => {
  it("a registration through the REST API answers the event's questions as the gateway requires, stored with the event's wording", async () => {
    const event = await createEvent({
      registrationMode: "registration",
      questions: [
        { id: "size01", label: "Shirt size", kind: "choice", options: ["S", "M"], required: true },
        { id: "care01", label: "Childcare?", kind: "yes_no", options: [], required: false },
      ],
    });
    const guest = pbAs(null);
    const refused = async (answers: unknown) => {
      try {
        await guest.collection("registrations").create(registrationBody(event, { answers }));
        return "created";
      } catch (error) {
        return Object.keys((error as { response?: { data?: object } }).response?.data ?? {});
      }
    };
    expect(await refused(null)).toEqual(["answers"]);
    expect(await refused([{ questionId: "size01", question: "Shirt size", value: "XXL" }])).toEqual([
      "answers",
    ]);
    expect(
      await refused([
        { questionId: "size01", question: "Shirt size", value: "M" },
        { questionId: "care01", question: "Childcare?", value: "maybe" },
      ]),
    ).toEqual(["answers"]);
    const made = await guest.collection("registrations").create(
      registrationBody(event, {
        answers: [
          { questionId: "size01", question: "Anything I like", value: " M " },
          { questionId: "other", question: "Not asked", value: "x" },
        ],
      }),
    );
    const stored = await (await system()).collection("registrations").getOne(made.id);
    expect(stored.answers).toEqual([{ questionId: "size01", question: "Shirt size", value: "M" }]);
  });

  it("50 parallel registrations for 10 seats: exactly 10 confirmed, 40 waitlisted in order", async () => {
    const su = await system();
    const event = await createEvent({
      registrationMode: "registration",
      capacity: 10,
      waitlistEnabled: true,
    });
    const guest = pbAs(null);
    const made = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        guest.collection("registrations").create(registrationBody(event, { name: `Visitor ${i}` })),
      ),
    );
    expect(made).toHaveLength(50);
    const all = await su
      .collection("registrations")
      .getFullList({ filter: su.filter("event = {:e}", { e: event.id }), sort: "waitlistPosition" });
    expect(all.filter((r) => r.status === "confirmed")).toHaveLength(10);
    const waitlisted = all.filter((r) => r.status === "waitlisted");
    expect(waitlisted).toHaveLength(40);
    expect(waitlisted.map((r) => r.waitlistPosition)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await countsOf(su, event.id)).toMatchObject({ confirmed: 10, waitlisted: 40 });

    // Two cancellations by the visitors' own links promote the first two on the waitlist, in order.
    const confirmed = all.filter((r) => r.status === "confirmed");
    for (const r of confirmed.slice(0, 2)) {
      const token = made.find((m) => m.id === r.id)
        ? (await su.collection("registrations").getOne(r.id, { fields: "cancelToken" })).cancelToken
        : "";
      await guest.collection("registrations").update(r.id, { status: "cancelled" }, { query: { token } });
    }
    const after = await su
      .collection("registrations")
      .getFullList({ filter: su.filter("event = {:e} && status = 'confirmed'", { e: event.id }) });
    expect(after).toHaveLength(10);
    const promoted = after.filter((r) => r.promotedAt);
    expect(promoted.map((r) => r.waitlistPosition).sort((a, b) => a - b)).toEqual([1, 2]);
    expect(await countsOf(su, event.id)).toMatchObject({ confirmed: 10, waitlisted: 38 });
  });

  it("a party larger than the seats left is split: seats left confirmed, the rest waitlisted", async () => {
    const su = await system();
    const event = await createEvent({ registrationMode: "registration", capacity: 4, waitlistEnabled: true });
    const guest = pbAs(null);
    await guest.collection("registrations").create(registrationBody(event, { attendees: 2 }));
    const party = await guest
      .collection("registrations")
      .create(registrationBody(event, { attendees: 3, name: "Party of three" }));
    const parts = await su
      .collection("registrations")
      .getFullList({ filter: su.filter("id = {:id} || partOf = {:id}", { id: party.id }), sort: "created" });
    expect(parts.map((p) => [p.status, p.attendees])).toEqual([
      ["confirmed", 2],
      ["waitlisted", 1],
    ]);
    expect(await countsOf(su, event.id)).toMatchObject({ confirmed: 4, waitlisted: 1 });
  });

  it("refuses a duplicate email for the same occurrence and registration outside the window", async () => {
    const guest = pbAs(null);
    const event = await createEvent({ registrationMode: "registration", capacity: 5 });
    await guest.collection("registrations").create(registrationBody(event, { email: "same@test.example" }));
    await expect(
      guest.collection("registrations").create(registrationBody(event, { email: "SAME@test.example" })),
    ).rejects.toMatchObject({ status: 400 });
    const closed = await createEvent({
      registrationMode: "registration",
      capacity: 5,
      registrationClosesAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await expect(guest.collection("registrations").create(registrationBody(closed))).rejects.toMatchObject({
      status: 400,
    });
    const full = await createEvent({ registrationMode: "registration", capacity: 1, waitlistEnabled: false });
    await guest.collection("registrations").create(registrationBody(full));
    await expect(guest.collection("registrations").create(registrationBody(full))).rejects.toMatchObject({
      status: 400,
    });
  });
});
