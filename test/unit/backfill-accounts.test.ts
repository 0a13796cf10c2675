/**
 * Backfill keeps one account, one place, and blocks: a replacement seat never goes to an account
 * already in that game, nor to one blocked with a player of it, nor to two replacements blocked
 * with each other. The desk's choice is observed through `withdraw`, which refuses (so nothing is
 * reserved and no server is needed).
 */
import { describe, expect, it } from "vitest";
import { BackfillDesk } from "../../src/colyseus/backfill-desk.js";
import { BlockList } from "../../src/core/blocks.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { Match, Ticket } from "../../src/core/types.js";

const solo = (id: string, account: string, at: number, rating = 1500): Ticket => ({
  id,
  players: [{ sessionId: id, rating, playerId: account }],
  enqueuedAt: at,
});

/** A running 2v2 of accounts a1..a4 and a desk over `waiting`; returns the tickets it tried to seat. */
function desk(waiting: Ticket[], blocks?: BlockList) {
  const mm = new Matchmaker({ teamSize: 2 });
  for (const [i, account] of ["a1", "a2", "a3", "a4"].entries()) mm.enqueue(solo(`g${i}`, account, 0), 0);
  const [match] = mm.tick(0) as [Match];
  /** The accounts the desk chose at its last `serve` (it asks `withdraw` for each). */
  let choice: string[] = [];
  const backfill = new BackfillDesk({
    queue: "q",
    waiting: () => waiting,
    zonesOf: () => undefined,
    withdraw: (t) => {
      choice.push(t.players[0]!.playerId!);
      return false;
    },
    restore: () => undefined,
    auth: () => undefined,
    seatTicket: () => [],
    count: () => undefined,
    ...(blocks ? { blocked: (a: string, b: string) => blocks.has(a, b) } : {}),
  });
  const serve = () => {
    choice = [];
    backfill.serve();
    return choice;
  };
  backfill.trackMatch(match, "room1");
  return { backfill, match, serve };
}

describe("backfill and accounts", () => {
  it("never seats an account already in the game", () => {
    const { backfill, match, serve } = desk([solo("w1", "a3", 1, 1500), solo("w2", "fresh", 2, 1900)]);
    backfill.request(match.id, 0, 1);
    // a3 is closest in rating but already plays in this game: the other one is chosen.
    expect(serve()).toEqual(["fresh"]);
  });

  it("never seats an account blocked with one of the game's players", () => {
    const blocks = new BlockList();
    blocks.block("a2", "near");
    const { backfill, match, serve } = desk([solo("w1", "near", 1, 1500), solo("w2", "far", 2, 1900)], blocks);
    backfill.request(match.id, 0, 1);
    expect(serve()).toEqual(["far"]);
  });

  it("of two replacements blocked with each other, the newer steps aside", () => {
    const blocks = new BlockList();
    blocks.block("x", "y");
    const { backfill, match, serve } = desk(
      [solo("w1", "x", 1, 1500), solo("w2", "y", 2, 1500), solo("w3", "z", 3, 1800)],
      blocks,
    );
    backfill.request(match.id, 0, 2);
    expect(serve().sort()).toEqual(["x", "z"]);
  });

  it("with nobody allowed, nobody is chosen (the request waits)", () => {
    const blocks = new BlockList();
    for (const a of ["a1", "a2", "a3", "a4"]) blocks.block(a, "only");
    const { backfill, match, serve } = desk([solo("w1", "only", 1)], blocks);
    backfill.request(match.id, 0, 1);
    expect(serve()).toEqual([]);
    expect(backfill.pending).toBe(1);
  });
});
