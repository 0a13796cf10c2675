/**
 * Zones (Xu, Yu and Wu, "Rule Designs for Optimal Online Game Matchmaking", section V): a queue
 * may offer several zones (e.g. `junior` and `advanced`), each with its own policy instance.
 * A ticket that accepts several zones (a choice-free ticket) waits in every one of them and is
 * withdrawn from the others the moment one zone matches it. When two zones want the same
 * ticket in the same round, the game whose oldest ticket arrived first wins (the paper's FIFO
 * rule: a choice-free newcomer meets whoever has waited longest).
 */
import * as v from "valibot";
import { MatchmakerError } from "./errors.js";
import type { Policy } from "./policy.js";
import type { Ticket } from "./types.js";

/** A zone of a queue; `minRating`/`maxRating` restrict who may enter it (every party member). */
export interface ZoneSpec {
  readonly name: string;
  readonly minRating?: number;
  readonly maxRating?: number;
}

/** A zone as configured: its name, or its name with a rating band. */
export type ZoneOption = string | ZoneSpec;

const ZoneName = v.pipe(v.string("must be a zone name"), v.minLength(1, "must not be empty"), v.maxLength(64));

/** The schema of a queue's `zones` option. */
export const ZonesSchema = v.pipe(
  v.array(
    v.union(
      [
        ZoneName,
        v.strictObject({
          name: ZoneName,
          minRating: v.optional(v.pipe(v.number(), v.finite("must be a finite number"))),
          maxRating: v.optional(v.pipe(v.number(), v.finite("must be a finite number"))),
        }),
      ],
      "must be a zone name or { name, minRating?, maxRating? }",
    ),
    "must be a list of zones",
  ),
  v.minLength(1, "must name at least one zone"),
  v.maxLength(32, "at most 32 zones"),
);

/** Normalise a queue's zones; throws `MatchmakerError("invalid_config")` naming the problem, prefixed by `what`. */
export function resolveZones(zones: readonly ZoneOption[], what = "matchmaker options"): ZoneSpec[] {
  const result = v.safeParse(ZonesSchema, zones);
  if (!result.success) {
    throw new MatchmakerError("invalid_config", `${what}: zones: ${result.issues[0].message}`, "zones");
  }
  const specs = result.output.map((z) => (typeof z === "string" ? { name: z } : z));
  const names = new Set<string>();
  for (const z of specs) {
    if (names.has(z.name))
      throw new MatchmakerError("invalid_config", `${what}: zones: "${z.name}" is listed twice`, "zones");
    names.add(z.name);
    if (z.minRating !== undefined && z.maxRating !== undefined && z.minRating > z.maxRating) {
      throw new MatchmakerError("invalid_config", `${what}: zones: "${z.name}": minRating is above maxRating`, "zones");
    }
  }
  return specs;
}

/** True if `zone`'s rating band admits `rating`. */
export function zoneAdmits(zone: ZoneSpec, rating: number): boolean {
  return (
    (zone.minRating === undefined || rating >= zone.minRating) &&
    (zone.maxRating === undefined || rating <= zone.maxRating)
  );
}

/**
 * The zones a ticket waits in: the ones it names (each must exist and admit every member), or,
 * when it names none, every zone that admits all its members; in the queue's order. Throws
 * `MatchmakerError("invalid_ticket", "<what>: zones: …", "zones")` when it cannot wait anywhere.
 * @param what names the caller's request in the message (e.g. "invalid join options").
 */
export function ticketZones(ticket: Ticket, zones: readonly ZoneSpec[], what = "invalid ticket"): string[] {
  const refuse = (problem: string): never => {
    throw new MatchmakerError("invalid_ticket", `${what}: zones: ${problem}`, "zones");
  };
  const admits = (z: ZoneSpec) => ticket.players.every((p) => zoneAdmits(z, p.rating));
  if (ticket.zones === undefined || ticket.zones.length === 0) {
    const open = zones.filter(admits).map((z) => z.name);
    return open.length > 0 ? open : refuse("no zone of this queue admits this rating");
  }
  const wanted = new Set(ticket.zones);
  for (const name of wanted) {
    const zone =
      zones.find((z) => z.name === name) ?? refuse(`"${name}" is not one of ${zones.map((z) => z.name).join(", ")}`);
    for (const p of ticket.players) {
      if (zone.minRating !== undefined && p.rating < zone.minRating)
        refuse(`zone "${zone.name}" needs a rating of at least ${zone.minRating}`);
      if (zone.maxRating !== undefined && p.rating > zone.maxRating)
        refuse(`zone "${zone.name}" takes ratings up to ${zone.maxRating}`);
    }
  }
  return zones.filter((z) => wanted.has(z.name)).map((z) => z.name);
}

/** A game a zone's policy proposed. */
export interface ZoneProposal {
  /** The zone's name (`undefined` in a queue without zones). */
  readonly zone: string | undefined;
  readonly tickets: Ticket[];
}

/** The answer of most polls, shared (the engine only reads it). */
const NO_PROPOSALS: readonly ZoneProposal[] = [];

/** Enough rounds for every zone to retry once after losing a ticket to another zone, and more. */
const MAX_ROUNDS_PER_ZONE = 4;

/**
 * One policy instance per zone. A queue without zones is one unnamed zone, so the engine has a
 * single code path. The router owns which zone's policy currently holds which ticket.
 */
export class ZoneRouter {
  private readonly policies: ReadonlyMap<string | undefined, Policy>;
  /** For each waiting ticket, the zones whose policy holds it (queues with zones only). */
  private readonly holders = new Map<string, Set<string | undefined>>();
  /**
   * In a queue without zones, the one policy: there is nothing to route, so it is called
   * directly (it ignores removals of tickets it does not hold; the engine adds a ticket only
   * when the policy does not hold it).
   */
  private readonly single: Policy | undefined;

  constructor(zones: readonly ZoneSpec[] | undefined, makePolicy: () => Policy) {
    this.policies = zones ? new Map(zones.map((z) => [z.name, makePolicy()])) : new Map([[undefined, makePolicy()]]);
    this.single = zones ? undefined : this.policies.get(undefined);
  }

  /** Every zone's policy, in the queue's zone order. */
  get zonePolicies(): ReadonlyMap<string | undefined, Policy> {
    return this.policies;
  }

  /**
   * Let `ticket` wait in each of `zones` (the unnamed zone when the queue has none) not holding it
   * yet.
   */
  add(ticket: Ticket, zones: readonly string[] | undefined, now: number): void {
    if (this.single) return this.single.add(ticket, now);
    let held = this.holders.get(ticket.id);
    if (!held) this.holders.set(ticket.id, (held = new Set()));
    for (const zone of zones ?? [undefined]) {
      if (held.has(zone)) continue;
      this.policies.get(zone)!.add(ticket, now);
      held.add(zone);
    }
  }

  /** Withdraw a ticket from every zone. */
  remove(ticketId: string): void {
    if (this.single) return this.single.remove(ticketId);
    const held = this.holders.get(ticketId);
    if (!held) return;
    for (const zone of held) this.policies.get(zone)!.remove(ticketId);
    this.holders.delete(ticketId);
  }

  /**
   * The games to form now. Each zone's policy is polled; a ticket proposed by two zones goes to
   * the game whose oldest ticket is oldest (ties: the zone listed first), and the losing game's
   * other tickets go back to their zone, which is polled again.
   */
  poll(now: number): readonly ZoneProposal[] {
    if (this.single) {
      const games = this.single.poll(now);
      if (games.length === 0) return NO_PROPOSALS;
      return games.map((tickets) => ({ zone: undefined, tickets }));
    }
    const accepted: ZoneProposal[] = [];
    /** Tickets given to a game this poll, and the zone that got them. */
    const taken = new Map<string, string | undefined>();
    const zoneOrder = [...this.policies.keys()];
    for (let round = 0; round < MAX_ROUNDS_PER_ZONE * this.policies.size; round++) {
      const proposals: ZoneProposal[] = [];
      for (const [zone, policy] of this.policies) {
        for (const tickets of policy.poll(now)) {
          proposals.push({ zone, tickets });
          for (const t of tickets) this.holders.get(t.id)?.delete(zone); // the policy forgot them
        }
      }
      if (proposals.length === 0) break;
      if (this.policies.size > 1) {
        const oldest = (p: ZoneProposal) => Math.min(...p.tickets.map((t) => t.enqueuedAt));
        proposals.sort((a, b) => oldest(a) - oldest(b) || zoneOrder.indexOf(a.zone) - zoneOrder.indexOf(b.zone));
      }
      let lost = false;
      for (const proposal of proposals) {
        // Only another zone's claim makes a game lose; a zone reusing its own ticket is a policy
        // bug that the engine reports.
        if (proposal.tickets.some((t) => taken.has(t.id) && taken.get(t.id) !== proposal.zone)) {
          lost = true;
          for (const t of proposal.tickets) if (!taken.has(t.id)) this.returnTo(proposal.zone, t, now);
          continue;
        }
        for (const t of proposal.tickets) {
          taken.set(t.id, proposal.zone);
          this.remove(t.id);
        }
        accepted.push(proposal);
      }
      if (!lost) break;
    }
    return accepted;
  }

  /** The earliest wake-up any zone asks for. */
  nextWakeup(now: number): number | undefined {
    let earliest: number | undefined;
    for (const policy of this.policies.values()) {
      const at = policy.nextWakeup(now);
      if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
    }
    return earliest;
  }

  private returnTo(zone: string | undefined, ticket: Ticket, now: number): void {
    this.policies.get(zone)!.add(ticket, now);
    let held = this.holders.get(ticket.id);
    if (!held) this.holders.set(ticket.id, (held = new Set()));
    held.add(zone);
  }
}
