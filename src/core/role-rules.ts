/**
 * Role-restricted queues (Alman and McKay, section 1.2.6). A queue declares its k = teamSize
 * roles; every player lists the roles they accept. A game is valid only when each team has
 * exactly one player in every role and every player plays a role they accept.
 *
 * This module holds the shared, exact pieces every part of the engine uses: validation of the
 * queue's roles and of a ticket's, the role assignment of a team (a bipartite matching of at
 * most k players to the k roles), and the search for a role-valid game among tickets.
 */
import { MatchmakerError } from "./errors.js";
import type { Player, Ticket } from "./types.js";

/**
 * Largest team size of a role queue. It keeps every role-aware search exact and small: team
 * assembly enumerates at most C(16, 8) splits, and the game search at most 4^8 role states.
 */
export const MAX_ROLE_TEAM_SIZE = 8;

/** Longest accepted role name. */
export const MAX_ROLE_NAME_LENGTH = 32;

/**
 * Check a queue's role list: exactly teamSize distinct non-empty names. Throws
 * `MatchmakerError("invalid_config", "<what>: roles: …", "roles")` when it is unusable.
 * @param what names the caller's options in the message (e.g. "MatchmakerRoom options").
 */
export function checkQueueRoles(roles: readonly unknown[], teamSize: number, what = "matchmaker options"): void {
  const refuse = (problem: string): never => {
    throw new MatchmakerError("invalid_config", `${what}: roles: ${problem}`, "roles");
  };
  if (teamSize > MAX_ROLE_TEAM_SIZE)
    refuse(`role queues support teamSize up to ${MAX_ROLE_TEAM_SIZE}, got ${teamSize}`);
  if (roles.length !== teamSize) refuse(`must name exactly teamSize = ${teamSize} roles, got ${roles.length}`);
  const seen = new Set<string>();
  for (const role of roles) {
    if (typeof role !== "string" || role.length === 0) refuse("every role must be a non-empty string");
    const name = role as string;
    if (name.length > MAX_ROLE_NAME_LENGTH) refuse(`role names have at most ${MAX_ROLE_NAME_LENGTH} characters`);
    if (seen.has(name)) refuse(`"${name}" is listed twice`);
    seen.add(name);
  }
}

/**
 * Check a ticket's roles against the queue's. With queue roles, every player lists one or more
 * of them, nothing else and nothing twice, and a party's members must be able to take different
 * roles (they share a team). Without queue roles, no player may carry roles. Throws
 * `MatchmakerError("invalid_ticket", "<what>: <field>: …", field)`, the field being e.g.
 * `players.0.roles`.
 */
export function checkTicketRoles(
  ticket: Ticket,
  queue: readonly string[] | RoleTable | undefined,
  what = "invalid ticket",
): void {
  if (!queue) {
    // The engine's hot path (every join): a plain loop, no closure (and so no context to allocate,
    // which a closure over `what` anywhere in this function would cost every call).
    const players = ticket.players;
    for (let i = 0; i < players.length; i++) {
      if (players[i].roles !== undefined) refuseRoles(what, `players.${i}.roles`, "this queue has no roles");
    }
    return;
  }
  checkRoleQueueTicket(ticket, queue, what);
}

/** {@link checkTicketRoles} in a role queue. */
function checkRoleQueueTicket(ticket: Ticket, queue: readonly string[] | RoleTable, what: string): void {
  const refuse = (field: string, problem: string): never => refuseRoles(what, field, problem);
  const table = queue instanceof RoleTable ? queue : new RoleTable(queue);
  const queueRoles = table.names;
  for (const [i, p] of ticket.players.entries()) {
    const field = `players.${i}.roles`;
    if (!p.roles || p.roles.length === 0) {
      refuse(field, `is required in a role queue (one or more of ${queueRoles.join(", ")})`);
    }
    const seen = new Set<string>();
    for (const role of p.roles ?? []) {
      if (table.indexOf(role) === undefined) {
        refuse(field, `"${role}" is not one of this queue's roles (${queueRoles.join(", ")})`);
      }
      if (seen.has(role)) refuse(field, `"${role}" is listed twice`);
      seen.add(role);
    }
  }
  if (table.partyMasks(ticket).length === 0) refuse("players", "the party's members cannot each take a different role");
}

function refuseRoles(what: string, field: string, problem: string): never {
  throw new MatchmakerError("invalid_ticket", `${what}: ${field}: ${problem}`, field);
}

/** A queue's roles by index (role i is bit i of a mask), with the masks of players and parties. */
export class RoleTable {
  readonly names: readonly string[];
  /** Number of roles (the team size). */
  readonly k: number;
  /** The mask of a complete team: every role filled. */
  readonly full: number;
  private readonly index = new Map<string, number>();
  private readonly partyMaskCache = new WeakMap<Ticket, number[]>();

  constructor(names: readonly string[]) {
    // A precondition (masks are 32-bit); callers check the queue's roles first (checkQueueRoles).
    if (names.length > 30) throw new RangeError("a role table holds at most 30 roles");
    this.names = [...names];
    this.k = names.length;
    this.full = (1 << this.k) - 1;
    names.forEach((name, i) => this.index.set(name, i));
  }

  indexOf(role: string): number | undefined {
    return this.index.get(role);
  }

  /** The roles a player accepts, as a mask (roles the queue does not know are ignored). */
  maskOf(player: Player): number {
    let mask = 0;
    for (const role of player.roles ?? []) {
      const i = this.index.get(role);
      if (i !== undefined) mask |= 1 << i;
    }
    return mask;
  }

  /**
   * Every set of roles (as a mask) the ticket's players can fill together, each in a different
   * role they accept; empty when they cannot. A solo's masks are its accepted roles.
   */
  partyMasks(ticket: Ticket): number[] {
    const cached = this.partyMaskCache.get(ticket);
    if (cached) return cached;
    const masks = ticket.players.map((p) => this.maskOf(p));
    const found = new Set<number>();
    const place = (i: number, used: number): void => {
      if (i === masks.length) {
        found.add(used);
        return;
      }
      for (let r = 0; r < this.k; r++) {
        const bit = 1 << r;
        if (masks[i] & bit && !(used & bit)) place(i + 1, used | bit);
      }
    };
    place(0, 0);
    const result = [...found].sort((a, b) => a - b);
    this.partyMaskCache.set(ticket, result);
    return result;
  }
}

/**
 * Give each player (by accepted-role mask) a different role: a maximum bipartite matching
 * (augmenting paths, O(players · k²)). Returns each player's role index, or `undefined` when
 * some player cannot get a role of their own. Deterministic: players in order, roles by index.
 */
export function matchRoles(masks: readonly number[], k: number): number[] | undefined {
  if (masks.length > k) return undefined;
  const owner: number[] = new Array(k).fill(-1);
  const roleOf: number[] = new Array(masks.length).fill(-1);
  let visited = 0;
  const place = (q: number): boolean => {
    for (let r = 0; r < k; r++) {
      const bit = 1 << r;
      if (!(masks[q] & bit) || visited & bit) continue;
      visited |= bit;
      if (owner[r] < 0 || place(owner[r])) {
        owner[r] = q;
        roleOf[q] = r;
        return true;
      }
    }
    return false;
  };
  for (let p = 0; p < masks.length; p++) {
    visited = 0;
    if (!place(p)) return undefined;
  }
  return roleOf;
}

/**
 * One step of an incremental role check: `filled` lists the sets of roles (masks) that the
 * players so far can occupy, each in a different accepted role; the result lists those sets
 * once one more player, accepting `accepted`, has taken a free role too. The players fit in
 * distinct roles exactly while the list is not empty. A list holds at most C(k, players) sets.
 */
export function fillRole(filled: readonly number[], accepted: number): number[] {
  const out: number[] = [];
  for (const used of filled) {
    for (let open = accepted & ~used; open !== 0; open &= open - 1) {
      const next = used | (open & -open);
      if (!out.includes(next)) out.push(next);
    }
  }
  return out;
}

/**
 * The shared, exact role-assignment step: given the two teams of a game, give every player a
 * role they accept so that each team has exactly one player per role. Returns player id →
 * role, or `undefined` when no such assignment exists (including a team of the wrong size).
 */
export function assignRoles(
  teamA: readonly Player[],
  teamB: readonly Player[],
  roles: readonly string[] | RoleTable,
): Map<string, string> | undefined {
  return assignTeamRoles([teamA, teamB], roles instanceof RoleTable ? roles : new RoleTable(roles));
}

/** {@link assignRoles} for any number of teams: one player per role on each. */
export function assignTeamRoles(
  teams: readonly (readonly Player[])[],
  table: RoleTable,
): Map<string, string> | undefined {
  const assignment = new Map<string, string>();
  for (const team of teams) {
    if (team.length !== table.k) return undefined;
    const roleOf = matchRoles(
      team.map((p) => table.maskOf(p)),
      table.k,
    );
    if (!roleOf) return undefined;
    team.forEach((p, i) => assignment.set(p.sessionId, table.names[roleOf[i]]));
  }
  return assignment;
}

/** How a search step reached a state: the ticket placed and its team, after the previous step. */
interface Step {
  readonly ticket: Ticket;
  readonly team: 0 | 1;
  readonly prev: Step | undefined;
}

/**
 * The exact search for role-valid games among tickets, one ticket at a time: a reachability
 * over states (roles filled on team A, roles filled on team B), at most 4^k of them, each step
 * costing O(states · party masks). Parties stay on one team in different roles; sides are
 * honoured.
 *
 * - `"choose"`: a ticket may be left out; `found` once some subset of the tickets added forms a
 *   complete game (both teams full), which `game()` returns.
 * - `"seat-all"`: every ticket added must be seated; `possible` while they all fit on two teams
 *   in different roles, the empty seats left for players who accept any role (bots).
 */
export class RoleGameSearch {
  private states = new Map<number, Step | undefined>([[0, undefined]]);
  private goal: Step | undefined;
  private readonly shift: number;
  private readonly goalState: number;

  constructor(
    private readonly table: RoleTable,
    private readonly mode: "choose" | "seat-all",
  ) {
    this.shift = table.k;
    this.goalState = table.full | (table.full << table.k);
  }

  /** True once the tickets added hold a complete role-valid game (`"choose"` mode). */
  get found(): boolean {
    return this.goal !== undefined;
  }

  /** True while every ticket added can be seated (`"seat-all"` mode). */
  get possible(): boolean {
    return this.states.size > 0;
  }

  add(ticket: Ticket): void {
    if (this.goal) return;
    const masks = this.table.partyMasks(ticket);
    const full = this.table.full;
    const next = this.mode === "choose" ? this.states : new Map<number, Step | undefined>();
    for (const [state, step] of [...this.states]) {
      const a = state & full;
      const b = state >>> this.shift;
      for (const m of masks) {
        if (ticket.side !== "B" && !(a & m)) this.reach(next, state | m, { ticket, team: 0, prev: step });
        if (ticket.side !== "A" && !(b & m))
          this.reach(next, state | (m << this.shift), { ticket, team: 1, prev: step });
        if (this.goal) return;
      }
    }
    this.states = next;
  }

  /** The game found: each ticket with its team (0 = A, 1 = B), in the order they were added. */
  game(): Array<{ ticket: Ticket; team: 0 | 1 }> {
    const out: Array<{ ticket: Ticket; team: 0 | 1 }> = [];
    for (let s = this.goal; s; s = s.prev) out.push({ ticket: s.ticket, team: s.team });
    return out.reverse();
  }

  private reach(states: Map<number, Step | undefined>, state: number, step: Step): void {
    if (states.has(state)) return;
    states.set(state, step);
    if (this.mode === "choose" && state === this.goalState) this.goal = step;
  }
}

/**
 * True when `tickets` can all sit on two teams of `k` in different accepted roles, the seats
 * left over going to players who accept any role (the engine's bots).
 */
export function fitsWithBotsAndRoles(tickets: readonly Ticket[], table: RoleTable): boolean {
  const search = new RoleGameSearch(table, "seat-all");
  for (const t of tickets) {
    search.add(t);
    if (!search.possible) return false;
  }
  return true;
}
