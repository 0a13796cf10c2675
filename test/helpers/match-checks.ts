/** Structural checks every match must pass, whatever the policy. */
import { expect } from "vitest";
import { hasSides, teamCountOf, teamSizeOf, type GameShape } from "../../src/core/shape.js";
import type { Match, Ticket } from "../../src/core/types.js";

/**
 * Two teams of k, sides A then B, parties whole and on their chosen side, players as in their
 * tickets. Bot seats (players marked `bot`) must number `match.bots`; everyone else comes from
 * `match.tickets`, each ticket on exactly one team.
 */
export function expectValidMatch(match: Match, k: number): void {
  expect(match.teamSize).toBe(k);
  const [a, b] = match.teams;
  expect(a.side).toBe("A");
  expect(b.side).toBe("B");
  const byId = new Map<string, Ticket>(match.tickets.map((t) => [t.id, t]));
  expect(byId.size).toBe(match.tickets.length);
  const seen = new Set<string>();
  let bots = 0;
  for (const team of match.teams) {
    expect(team.players).toHaveLength(k);
    const humans = team.players.filter((p) => !p.bot);
    bots += team.players.length - humans.length;
    // The team's human players are exactly its human tickets' players, in ticket order.
    const expected = team.ticketIds
      .filter((id) => byId.has(id))
      .flatMap((id) => {
        const t = byId.get(id)!;
        if (t.side) expect(t.side, `ticket ${id} plays its chosen side`).toBe(team.side);
        return t.players.map((p) => ({ id: p.sessionId, rating: p.rating, ticketId: id }));
      });
    expect(humans.map((p) => ({ id: p.sessionId, rating: p.rating, ticketId: p.ticketId }))).toEqual(expected);
    expect(team.ratingSum).toBe(team.players.reduce((s, p) => s + p.rating, 0));
    for (const id of team.ticketIds) {
      expect(seen.has(id), `ticket ${id} sits on one team only`).toBe(false);
      seen.add(id);
    }
  }
  expect(bots).toBe(match.bots);
  for (const id of byId.keys()) expect(seen.has(id), `ticket ${id} is seated`).toBe(true);
}

/**
 * A match of any shape: as many teams as the shape has (a free-for-all: one per player, each a
 * player of one of the match's tickets), every team full, sides only with two teams, each ticket
 * on one team (a free-for-all's party: its players each on their own), bots numbering
 * `match.bots`.
 */
export function expectValidShapedMatch(match: Match, shape: GameShape): void {
  expect(match.shape).toEqual(shape);
  expect(match.teams).toHaveLength(teamCountOf(shape));
  const byId = new Map<string, Ticket>(match.tickets.map((t) => [t.id, t]));
  const seated = new Map<string, number>();
  let bots = 0;
  for (const team of match.teams) {
    expect(team.players).toHaveLength(teamSizeOf(shape));
    if (!hasSides(shape)) expect(team.side).toBeUndefined();
    bots += team.players.filter((p) => p.bot).length;
    expect(team.ratingSum).toBe(team.players.reduce((s, p) => s + p.rating, 0));
    for (const p of team.players) if (!p.bot) seated.set(p.sessionId, (seated.get(p.sessionId) ?? 0) + 1);
    const humanTickets = team.ticketIds.filter((id) => byId.has(id));
    // A team of several players holds whole tickets: its humans are exactly their players.
    if (shape.kind === "teams")
      expect(team.players.filter((p) => !p.bot).map((p) => p.sessionId)).toEqual(
        humanTickets.flatMap((id) => byId.get(id)!.players.map((p) => p.sessionId)),
      );
  }
  expect(bots).toBe(match.bots);
  for (const t of match.tickets) for (const p of t.players) expect(seated.get(p.sessionId), p.sessionId).toBe(1);
  expect(seated.size).toBe(match.tickets.reduce((n, t) => n + t.players.length, 0));
}

/** Nobody lost or duplicated: every issued ticket is in exactly one place (waiting, cancelled, or in an active match). */
export function expectEachTicketOnce(
  issued: readonly Ticket[],
  places: { waiting: Iterable<Ticket>; cancelled: Iterable<string>; matched: Iterable<Match> },
): void {
  const count = new Map<string, number>();
  const put = (id: string) => count.set(id, (count.get(id) ?? 0) + 1);
  for (const t of places.waiting) put(t.id);
  for (const id of places.cancelled) put(id);
  for (const m of places.matched) for (const t of m.tickets) put(t.id);
  expect(count.size).toBe(issued.length);
  for (const t of issued) expect(count.get(t.id), `ticket ${t.id}`).toBe(1);
}
