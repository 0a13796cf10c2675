/** QueueSession's backfill steps with injected time and recorded effects (no sockets). */
import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Ticket } from "../../src/core/types.js";
import type { PartyMessage } from "../../src/colyseus/parties.js";
import { QueueSession } from "../../src/colyseus/session.js";

function setup() {
  const sent: Array<{ to: string; type: string; payload: unknown }> = [];
  const shown = new Map<string, Ticket>();
  const matchmaker = new Matchmaker({ teamSize: 2 });
  const session = new QueueSession({
    matchmaker,
    effects: {
      send: (to, type, payload) => sent.push({ to, type, payload }),
      waiting: (t) => shown.set(t.id, t),
      notWaiting: (id) => shown.delete(id),
      spawn: () => undefined,
      remove: () => undefined,
    },
  });
  return { session, matchmaker, sent, shown };
}

describe("QueueSession backfill", () => {
  it("takes a waiting solo out of matching, then seats it (sending the seat)", () => {
    const { session, matchmaker, sent, shown } = setup();
    session.join({ player: { sessionId: "a", rating: 1500 } }, 0);
    const ticket = session.takeForBackfill("a", 10)!;
    expect(ticket.id).toBe("a");
    expect(session.placeOf("a")).toBe("backfill");
    expect(matchmaker.has("a")).toBe(false);
    expect(shown.has("a")).toBe(false);
    expect(session.takeForBackfill("a", 10)).toBeUndefined(); // not waiting any more
    expect(session.backfillSeated(ticket, new Map([["a", { roomId: "g" }]]))).toEqual(["a"]);
    expect(session.placeOf("a")).toBe("seated");
    expect(sent.filter((m) => m.type === "seat")).toEqual([{ to: "a", type: "seat", payload: { roomId: "g" } }]);
  });

  it("puts a ticket back at its original place when the reservation fails, telling it nothing", () => {
    const { session, matchmaker, sent, shown } = setup();
    session.join({ player: { sessionId: "a", rating: 1500 } }, 0);
    session.join({ player: { sessionId: "b", rating: 1500 } }, 5);
    const ticket = session.takeForBackfill("a", 10)!;
    const before = sent.length;
    session.backfillFailed(ticket, 20);
    expect(session.placeOf("a")).toBe("waiting");
    expect(matchmaker.get("a")?.enqueuedAt).toBe(0);
    expect([...matchmaker.waiting()].map((t) => t.id)).toEqual(["a", "b"]);
    expect(shown.has("a")).toBe(true);
    expect(sent.length).toBe(before);
  });

  it("never takes a dropped player, and a player who leaves meanwhile is simply gone", () => {
    const { session, matchmaker } = setup();
    session.join({ player: { sessionId: "a", rating: 1500 } }, 0);
    session.drop("a");
    expect(session.takeForBackfill("a", 10)).toBeUndefined();
    session.reconnect("a", 11);
    const ticket = session.takeForBackfill("a", 12)!;
    session.leave("a", 13);
    expect(session.placeOf("a")).toBeUndefined();
    expect(session.backfillSeated(ticket, new Map([["a", {}]]))).toEqual([]);
    session.backfillFailed(ticket, 14); // nobody to put back
    expect(matchmaker.has("a")).toBe(false);
  });

  it("seats a party whole, and holds it when a member left before a failed reservation", () => {
    const { session, sent } = setup();
    session.join({ player: { sessionId: "lead", rating: 1500 }, party: { size: 2 } }, 0);
    const code = (sent.find((m) => m.type === "party")!.payload as PartyMessage).code;
    session.join({ player: { sessionId: "mate", rating: 1500 }, partyCode: code }, 1);
    const partyId = session.parties.of("lead")!.id;
    const ticket = session.takeForBackfill(partyId, 2)!;
    expect(ticket.players.map((p) => p.sessionId)).toEqual(["lead", "mate"]);
    session.leave("mate", 3);
    session.backfillFailed(ticket, 4);
    expect(session.placeOf("lead")).toBe("party"); // held, as after a failed game creation

    const again = setup();
    again.session.join({ player: { sessionId: "lead", rating: 1500 }, party: { size: 2 } }, 0);
    const code2 = (again.sent.find((m) => m.type === "party")!.payload as PartyMessage).code;
    again.session.join({ player: { sessionId: "mate", rating: 1500 }, partyCode: code2 }, 1);
    const t2 = again.session.takeForBackfill(again.session.parties.of("lead")!.id, 2)!;
    expect(
      again.session.backfillSeated(
        t2,
        new Map([
          ["lead", 1],
          ["mate", 2],
        ]),
      ),
    ).toEqual(["lead", "mate"]);
    expect(again.session.parties.of("lead")).toBeUndefined(); // the party's job is done
  });
});
