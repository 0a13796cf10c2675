/**
 * The engine: waiting tickets, one policy, shared team assembly, and statistics.
 * Pure and clock-injected: every call takes `now` (ms) from its driver, the Colyseus room
 * or the simulator, so both run literally the same code.
 */
import * as v from "valibot";
import { ArrivalIndex } from "./arrival-order.js";
import { assembleTeams, fitsWithBots, playersOf, type TeamSplit } from "./assembly.js";
import { MatchmakerError } from "./errors.js";
import { imbalanceFunction, resolveImbalance, type ImbalanceFn, type ImbalanceSpec } from "./imbalance.js";
import { createPolicy, getPolicyDefinition, type Policy, type PolicyParams } from "./policy.js";
import { fitsWithBotsAndRoles, queueRolesProblem, RoleTable, ticketRolesProblem } from "./roles.js";
import { SideMix } from "./side-mix.js";
import { RecentWindow, type ClassFigures, type MatchmakerStats } from "./stats.js";
import { DEFAULT_AVOID_RECENT_FALLBACK_MS, RecentOpponents } from "./recent-opponents.js";
import { reachedMaxWait, type Match, type MatchedPlayer, type MatchTeam, type Side, type Ticket } from "./types.js";
import { describeIssues, parseConfig, unknownKeyMessage } from "./validation.js";
import { plainlyValidTicket } from "./ticket-check.js";
import { resolveZones, ticketZones, ZoneRouter, type ZoneOption, type ZoneSpec } from "./zones.js";

/** The fewest recent arrivals the side-mix flag looks at (enough to tell 0.4 choice-free from 0 by 7 standard errors). */
const SIDE_MIX_ARRIVALS = 200;

/** How many tickets per seat a bot game looks through for companions before it settles. */
const BOT_GAME_SCAN_PER_SEAT = 8;

/** Engine configuration. */
export interface MatchmakerOptions {
  /** Players per team (a game seats `2 * teamSize`). */
  readonly teamSize: number;
  /** A registered policy name (default `"greedy"`; `"roles"` in a role queue) or a policy instance. */
  readonly policy?: string | Policy;
  /** Parameters for a policy given by name. */
  readonly params?: PolicyParams;
  /**
   * How to score a team split: a named {@link ImbalanceSpec} (default `{ kind: "rating-sum" }`,
   * the difference of rating sums) or your own function.
   */
  readonly imbalance?: ImbalanceFn | ImbalanceSpec;
  /** Prefix of generated match ids (default `"m"`); the room uses its roomId. */
  readonly matchIdPrefix?: string;
  /** How many recent matches the statistics cover (default 200). */
  readonly statsWindow?: number;
  /**
   * Maximum wait (ms), Schlup's tau_max. Policies may relax for tickets that reach it; with
   * `fillWithBots`, the engine then forms a game of the oldest such ticket, the oldest others
   * that fit beside it, and bots in the remaining seats.
   */
  readonly maxWaitMs?: number;
  /** The range ratings fall in, for policies that divide it (e.g. `multi-queue`). */
  readonly ratingRange?: { readonly min: number; readonly max: number };
  /** Fill games with bots for tickets that reach `maxWaitMs` (requires `maxWaitMs`). */
  readonly fillWithBots?: boolean;
  /** Called when a policy proposes a game that cannot be assembled; its tickets keep waiting. */
  readonly onPolicyError?: (error: MatchmakerError) => void;
  /**
   * A role queue's roles (Alman and McKay's role-restricted queue): exactly `teamSize` distinct,
   * non-empty names, e.g. `["top", "jungle", "mid", "bot", "support"]`; teamSize at most 8.
   * Every player then lists the roles they accept (`Player.roles`), a game forms only when each
   * team can put one player in every role, and each matched player carries their `role`.
   * Needs a policy that supports roles (`"roles"`); a policy instance must propose only
   * role-valid games (others are refused as policy errors).
   */
  readonly roles?: readonly string[];
  /**
   * The queue's zones (Xu, Yu and Wu, section V), e.g. `["junior", { name: "advanced",
   * minRating: 1800 }]`: one policy instance per zone. A ticket waits in the zones it lists
   * (`Ticket.zones`), or in every zone that admits its rating when it lists none; a ticket in
   * several zones leaves the others the moment one matches it, and ties go to the game whose
   * oldest ticket is oldest. Each match says its `zone`. Needs a policy given by name.
   */
  readonly zones?: readonly ZoneOption[];
  /**
   * Avoid rematches: remember each player's last `avoidRecent` games (opponents and teammates)
   * and let searching policies prefer games without a repeat. A repeat is accepted once its
   * tickets waited `avoidRecentFallbackMs` (default 30 s). With `avoidRecentMs`, only games of
   * the last that many ms count. Players are told apart by `Player.identity`, else `Player.id`.
   */
  readonly avoidRecent?: number;
  readonly avoidRecentFallbackMs?: number;
  readonly avoidRecentMs?: number;
}

const OptionsSchema = v.object({
  teamSize: v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1), v.maxValue(64)),
  matchIdPrefix: v.optional(v.pipe(v.string(), v.maxLength(64))),
  statsWindow: v.optional(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1), v.maxValue(1_000_000))),
  maxWaitMs: v.optional(v.pipe(v.number(), v.finite("must be a finite number"), v.gtValue(0, "must be positive"))),
  fillWithBots: v.optional(v.boolean()),
  roles: v.optional(v.array(v.string("must be a string"), "must be a list of role names")),
  avoidRecent: v.optional(
    v.pipe(
      v.number(),
      v.integer("must be a whole number of games"),
      v.minValue(1, "must be at least 1"),
      v.maxValue(1000, "must be at most 1000"),
    ),
  ),
  avoidRecentFallbackMs: v.optional(v.pipe(v.number(), v.minValue(0, "must not be negative"))),
  avoidRecentMs: v.optional(v.pipe(v.number(), v.gtValue(0, "must be positive"))),
  ratingRange: v.optional(
    v.pipe(
      v.object({ min: v.pipe(v.number(), v.finite()), max: v.pipe(v.number(), v.finite()) }),
      v.check((r) => r.min < r.max, "min must be below max"),
    ),
  ),
});

const PlayerSchema = v.strictObject(
  {
    id: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128)),
    rating: v.pipe(v.number(), v.finite("must be a finite number")),
    uncertainty: v.optional(
      v.pipe(v.number(), v.finite("must be a finite number"), v.minValue(0, "must not be negative")),
    ),
    roles: v.optional(v.array(v.string("must be a string"), "must be a list of role names")),
    identity: v.optional(v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128))),
  },
  unknownKeyMessage,
);

function ticketSchema(teamSize: number) {
  return v.object({
    id: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128)),
    players: v.pipe(
      v.array(PlayerSchema),
      v.minLength(1, "a ticket needs at least one player"),
      v.maxLength(teamSize, `a party has at most teamSize = ${teamSize} players`),
    ),
    enqueuedAt: v.pipe(v.number(), v.finite("must be a finite number")),
    side: v.optional(v.picklist(["A", "B"], "must be A or B")),
    zones: v.optional(v.array(v.string())),
  });
}

/**
 * Holds the waiting tickets of one queue and forms matches with its policy.
 * Nothing is lost: a ticket is waiting until it is returned in a match or cancelled,
 * and `requeue` puts a match's tickets back at their original place.
 */
export class Matchmaker {
  readonly teamSize: number;
  readonly policy: Policy;
  readonly maxWaitMs: number | undefined;
  readonly fillWithBots: boolean;
  /** The queue's roles, when it is a role queue. */
  readonly roles: readonly string[] | undefined;
  private readonly roleTable: RoleTable | undefined;
  /** With `avoidRecent`: who recently played with whom. */
  readonly recentOpponents: RecentOpponents | undefined;
  private readonly imbalance: ImbalanceFn;
  private readonly matchIdPrefix: string;
  private readonly onPolicyError?: (error: MatchmakerError) => void;
  private readonly tickets = new Map<string, Ticket>();
  private readonly playerTicket = new Map<string, string>();
  private readonly byArrival = new ArrivalIndex();
  private readonly router: ZoneRouter;
  /** The queue's zones, when it has any. */
  readonly zones: readonly ZoneSpec[] | undefined;
  /** The zones each waiting ticket waits in (zoned queues only). */
  private readonly zonesOf = new Map<string, readonly string[]>();
  private readonly sideMix: SideMix;
  private readonly recentWaitsBySide = new Map<string, RecentWindow>();
  private readonly recentWaitsByZone = new Map<string, RecentWindow>();
  /** Waiting tickets and players per side preference and per zone, kept as tickets come and go. */
  private readonly waitingBySide = new Map<string, WaitingCount>();
  private readonly waitingByZone = new Map<string, WaitingCount>();
  private readonly validTicket: ReturnType<typeof ticketSchema>;
  private waitingPlayerCount = 0;
  private matchSeq = 0;
  private readonly recentWaits: RecentWindow;
  private readonly recentImbalance: RecentWindow;
  private counters = {
    matchesFormed: 0,
    playersMatched: 0,
    botsUsed: 0,
    ticketsCancelled: 0,
    ticketsRequeued: 0,
    policyErrors: 0,
  };

  constructor(options: MatchmakerOptions) {
    const parsed = parseConfig("matchmaker options", OptionsSchema, options);
    if (parsed.fillWithBots && parsed.maxWaitMs === undefined) {
      throw new MatchmakerError("invalid_config", "matchmaker options: fillWithBots: needs maxWaitMs");
    }
    this.maxWaitMs = parsed.maxWaitMs;
    this.fillWithBots = parsed.fillWithBots ?? false;
    this.teamSize = parsed.teamSize;
    if (parsed.roles) {
      const problem = queueRolesProblem(parsed.roles, parsed.teamSize);
      if (problem) throw new MatchmakerError("invalid_config", `matchmaker options: roles: ${problem}`);
    }
    this.roles = parsed.roles;
    this.roleTable = parsed.roles && new RoleTable(parsed.roles);
    const resolvedImbalance =
      typeof options.imbalance === "function"
        ? undefined
        : resolveImbalance(options.imbalance ?? { kind: "rating-sum" }, parsed.ratingRange?.min);
    this.imbalance =
      typeof options.imbalance === "function" ? options.imbalance : imbalanceFunction(resolvedImbalance!);
    this.matchIdPrefix = parsed.matchIdPrefix ?? "m";
    this.onPolicyError = options.onPolicyError;
    const window = parsed.statsWindow ?? 200;
    this.recentWaits = new RecentWindow(window * 2 * this.teamSize);
    this.recentImbalance = new RecentWindow(window);
    this.sideMix = new SideMix(Math.max(SIDE_MIX_ARRIVALS, window));
    this.validTicket = ticketSchema(this.teamSize);
    this.recentOpponents =
      parsed.avoidRecent === undefined
        ? undefined
        : new RecentOpponents(
            parsed.avoidRecent,
            parsed.avoidRecentFallbackMs ?? DEFAULT_AVOID_RECENT_FALLBACK_MS,
            undefined,
            parsed.avoidRecentMs,
          );
    const policy = options.policy ?? (this.roles ? "roles" : "greedy");
    if (this.recentOpponents && typeof policy === "string" && !getPolicyDefinition(policy).avoidsRepeats) {
      throw new MatchmakerError(
        "invalid_config",
        `matchmaker options: avoidRecent: policy "${policy}" does not avoid rematches (greedy, fifo, lifo, expanding-window and brackets do)`,
      );
    }
    if (this.roles && typeof policy === "string" && !getPolicyDefinition(policy).supportsRoles) {
      throw new MatchmakerError(
        "invalid_config",
        `matchmaker options: roles: policy "${policy}" does not form role-valid games; use policy "roles"`,
      );
    }
    this.zones = options.zones === undefined ? undefined : resolveZones(options.zones);
    if (this.zones && this.zones.length > 1 && typeof policy !== "string") {
      throw new MatchmakerError(
        "invalid_config",
        "matchmaker options: zones: each zone needs its own policy; give the policy by name",
      );
    }
    const makePolicy = (): Policy =>
      typeof policy === "string"
        ? createPolicy(
            policy,
            {
              teamSize: this.teamSize,
              imbalance: this.imbalance,
              ...(resolvedImbalance ? { imbalanceSpec: resolvedImbalance } : {}),
              ...(this.maxWaitMs !== undefined ? { maxWaitMs: this.maxWaitMs } : {}),
              ...(parsed.ratingRange ? { ratingRange: parsed.ratingRange } : {}),
              ...(this.roles ? { roles: this.roles } : {}),
              ...(this.recentOpponents ? { avoid: this.recentOpponents } : {}),
            },
            options.params,
          )
        : policy;
    this.router = new ZoneRouter(this.zones, makePolicy);
    this.policy = this.router.zonePolicies.values().next().value!;
  }

  /** Each zone's policy instance (one entry, keyed `undefined`, in a queue without zones). */
  get zonePolicies(): ReadonlyMap<string | undefined, Policy> {
    return this.router.zonePolicies;
  }

  /** The zones a waiting ticket waits in (undefined in a queue without zones or for an unknown ticket). */
  zonesOfTicket(ticketId: string): readonly string[] | undefined {
    return this.zonesOf.get(ticketId);
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.tickets.size;
  }

  get waitingPlayers(): number {
    return this.waitingPlayerCount;
  }

  has(ticketId: string): boolean {
    return this.tickets.has(ticketId);
  }

  get(ticketId: string): Ticket | undefined {
    return this.tickets.get(ticketId);
  }

  /** Waiting tickets, oldest first. */
  *waiting(): IterableIterator<Ticket> {
    for (const [, ticket] of this.byArrival.oldest()) yield ticket;
  }

  /**
   * Start a ticket waiting. Throws `MatchmakerError` (and changes nothing) for a malformed
   * ticket, a ticket id already waiting, or a player already waiting in another ticket.
   */
  enqueue(ticket: Ticket, now: number): void {
    this.enter(ticket, now);
    this.sideMix.arrived(ticket.side);
  }

  private enter(ticket: Ticket, now: number): void {
    // The schema runs only for a ticket that is not plainly well-formed (it then words the error).
    if (!plainlyValidTicket(ticket, this.teamSize)) {
      const result = v.safeParse(this.validTicket, ticket);
      if (!result.success)
        throw new MatchmakerError("invalid_ticket", `invalid ticket: ${describeIssues(result.issues)}`);
    }
    let zones: readonly string[] | undefined;
    if (this.zones) {
      const resolved = ticketZones(ticket, this.zones);
      if (typeof resolved === "string") throw new MatchmakerError("invalid_ticket", `invalid ticket: ${resolved}`);
      zones = resolved;
    } else if (ticket.zones && ticket.zones.length > 0) {
      throw new MatchmakerError("invalid_ticket", "invalid ticket: zones: this queue has no zones");
    }
    const roleProblem = ticketRolesProblem(ticket, this.roleTable);
    if (roleProblem) throw new MatchmakerError("invalid_ticket", `invalid ticket: ${roleProblem}`);
    if (this.tickets.has(ticket.id)) {
      throw new MatchmakerError("duplicate_ticket", `ticket "${ticket.id}" is already waiting`);
    }
    const players = ticket.players;
    for (let i = 0; i < players.length; i++) {
      const id = players[i].id;
      let twice = this.playerTicket.has(id);
      for (let j = 0; j < i && !twice; j++) twice = players[j].id === id;
      if (twice) throw new MatchmakerError("duplicate_player", `player "${id}" is already waiting`);
    }
    if (zones) this.zonesOf.set(ticket.id, zones);
    this.admit(ticket, now);
  }

  /**
   * Put tickets back after a match could not be started, keeping their original enqueue time
   * so they stand ahead of newcomers. Returns the tickets that could not be put back (their
   * id or a player is waiting again meanwhile), which the caller should report.
   */
  requeue(tickets: readonly Ticket[], now: number): Ticket[] {
    const refused: Ticket[] = [];
    for (const t of tickets) {
      try {
        this.enter(t, now);
        this.counters.ticketsRequeued++;
      } catch {
        refused.push(t);
      }
    }
    return refused;
  }

  /** Stop a ticket waiting (its player left). Returns false if it was not waiting. */
  cancel(ticketId: string, _now?: number): boolean {
    if (!this.forget(ticketId)) return false;
    this.router.remove(ticketId);
    this.counters.ticketsCancelled++;
    return true;
  }

  /** Run the policy and return the matches it formed; their tickets no longer wait. */
  tick(now: number): Match[] {
    const matches: Match[] = [];
    /** Tickets handed back to the policy this tick (each once, even if proposed in two games). */
    let handedBack: Set<string> | undefined;
    for (const { zone, tickets: proposal } of this.router.poll(now)) {
      const split = this.checkProposal(proposal);
      if (typeof split === "string") {
        this.counters.policyErrors++;
        // Hand each still-waiting ticket back once, as the engine holds it.
        handedBack ??= new Set();
        for (const id of new Set(proposal.map((t) => t.id))) {
          const waiting = this.tickets.get(id);
          if (waiting && !(this.zones === undefined && handedBack.has(id)))
            this.router.add(waiting, this.zonesOf.get(id), now);
          handedBack.add(id);
        }
        this.onPolicyError?.(new MatchmakerError("policy_contract", `policy ${this.policy.name}: ${split}`));
        continue;
      }
      for (const t of proposal) this.forget(t.id);
      matches.push(this.record(this.buildMatch(split, proposal, 0, now, zone)));
    }
    if (this.fillWithBots) matches.push(...this.botGames(now));
    return matches;
  }

  /** When the driver should call `tick` next even if nobody joins (undefined: only on joins). */
  nextWakeup(now: number): number | undefined {
    const policyWakeup = this.router.nextWakeup(now);
    const oldest = this.byArrival.oldest(1).next();
    if (!this.fillWithBots || oldest.done) return policyWakeup;
    const botWakeup = oldest.value[1].enqueuedAt + this.maxWaitMs!;
    return policyWakeup === undefined ? botWakeup : Math.min(policyWakeup, botWakeup);
  }

  stats(now: number): MatchmakerStats {
    const [p50WaitMs, p95WaitMs, p99WaitMs] = this.recentWaits.percentiles([50, 95, 99]);
    const oldest = this.byArrival.oldest(1).next();
    return {
      policy: this.policy.name,
      waitingTickets: this.tickets.size,
      waitingPlayers: this.waitingPlayerCount,
      ...this.counters,
      meanWaitMs: this.recentWaits.mean(),
      p50WaitMs,
      p95WaitMs,
      p99WaitMs,
      meanImbalance: this.recentImbalance.mean(),
      oldestWaitMs: oldest.done ? 0 : Math.max(0, now - oldest.value[1].enqueuedAt),
      bySide: classFigures(this.recentWaitsBySide, this.waitingBySide, ["A", "B", "any"]) as MatchmakerStats["bySide"],
      ...(this.zones
        ? {
            byZone: classFigures(
              this.recentWaitsByZone,
              this.waitingByZone,
              this.zones.map((z) => z.name),
            ),
          }
        : {}),
      sideMix: this.sideMix.figures(),
      ...this.policyStatus(),
    };
  }

  private policyStatus(): { policyStatus?: Readonly<Record<string, unknown>> } {
    if (!this.zones) {
      const status = this.policy.status?.();
      return status ? { policyStatus: status } : {};
    }
    const perZone: Record<string, unknown> = {};
    for (const [zone, policy] of this.router.zonePolicies) {
      const status = policy.status?.();
      if (status) perZone[zone!] = status;
    }
    return Object.keys(perZone).length ? { policyStatus: perZone } : {};
  }

  private admit(ticket: Ticket, now: number): void {
    this.tickets.set(ticket.id, ticket);
    for (const p of ticket.players) this.playerTicket.set(p.id, ticket.id);
    this.waitingPlayerCount += ticket.players.length;
    this.byArrival.add(ticket);
    this.countWaiting(ticket, 1);
    this.router.add(ticket, this.zones && this.zonesOf.get(ticket.id), now);
  }

  private forget(ticketId: string): boolean {
    const ticket = this.tickets.get(ticketId);
    if (!ticket) return false;
    this.tickets.delete(ticketId);
    for (const p of ticket.players) this.playerTicket.delete(p.id);
    this.waitingPlayerCount -= ticket.players.length;
    this.byArrival.remove(ticketId);
    this.countWaiting(ticket, -1);
    if (this.zones) this.zonesOf.delete(ticketId);
    return true;
  }

  /** Add (+1) or take away (−1) a ticket in the per-side and per-zone waiting counts. */
  private countWaiting(ticket: Ticket, sign: 1 | -1): void {
    addWaiting(this.waitingBySide, ticket.side ?? "any", sign, ticket.players.length);
    if (!this.zones) return;
    for (const zone of this.zonesOf.get(ticket.id) ?? [])
      addWaiting(this.waitingByZone, zone, sign, ticket.players.length);
  }

  /** A team split for the proposal, or why it breaks the policy contract. */
  private checkProposal(proposal: readonly Ticket[]): TeamSplit | string {
    const ids = new Set<string>();
    for (const t of proposal) {
      if (this.tickets.get(t.id) !== t) return `proposed ticket "${t.id}" is not waiting`;
      if (ids.has(t.id)) return `proposed ticket "${t.id}" twice`;
      ids.add(t.id);
    }
    return (
      assembleTeams(proposal, this.teamSize, this.imbalance, this.roleTable) ??
      (this.roleTable
        ? "proposed tickets cannot form two full teams with one player per role"
        : "proposed tickets cannot form two full teams")
    );
  }

  /**
   * Bot-filled games for tickets that reached the maximum wait, oldest first: each takes the
   * overdue ticket, then the oldest other tickets that still fit, and bots for the empty seats.
   */
  private botGames(now: number): Match[] {
    const matches: Match[] = [];
    const seats = 2 * this.teamSize;
    for (;;) {
      const oldest = this.byArrival.oldest(1).next();
      if (oldest.done || !reachedMaxWait(oldest.value[1], this.maxWaitMs!, now)) return matches;
      const chosen: Ticket[] = [];
      let players = 0;
      // In a zoned queue everyone in the game must accept one common zone, the overdue ticket's first.
      let common = this.zonesOf.get(oldest.value[1].id);
      // Scanning is bounded: a pool that could fill the game would have been matched already.
      for (const [, t] of this.byArrival.oldest(BOT_GAME_SCAN_PER_SEAT * seats)) {
        const shared = common && common.filter((z) => this.zonesOf.get(t.id)!.includes(z));
        if (shared && shared.length === 0) continue;
        const fits = this.roleTable
          ? fitsWithBotsAndRoles([...chosen, t], this.roleTable)
          : fitsWithBots([...chosen, t], this.teamSize);
        if (!fits) continue;
        common = shared;
        chosen.push(t);
        players += t.players.length;
        if (players === seats) break;
      }
      const id = this.nextMatchId();
      const humans = playersOf(chosen);
      const meanRating = humans.reduce((sum, p) => sum + p.rating, 0) / humans.length;
      const bots: Ticket[] = [];
      for (let i = 0; i < seats - players; i++) {
        const botId = `${id}~bot${i + 1}`;
        // In a role queue a bot plays whichever role is left.
        bots.push({
          id: botId,
          players: [{ id: botId, rating: meanRating, ...(this.roles ? { roles: this.roles } : {}) }],
          enqueuedAt: now,
        });
      }
      const split = assembleTeams([...chosen, ...bots], this.teamSize, this.imbalance, this.roleTable);
      if (!split) throw new Error(`internal: bot game ${id} cannot be assembled`); // fitsWithBots guarantees it
      for (const t of chosen) {
        this.forget(t.id);
        this.router.remove(t.id);
      }
      matches.push(this.record(this.buildMatch(split, chosen, bots.length, now, common?.[0], id)));
    }
  }

  private nextMatchId(): string {
    return `${this.matchIdPrefix}-${++this.matchSeq}`;
  }

  private buildMatch(
    split: TeamSplit,
    tickets: readonly Ticket[],
    bots: number,
    now: number,
    zone: string | undefined,
    id = this.nextMatchId(),
  ): Match {
    const botIds = new Set<string>();
    if (bots > 0) for (const t of [...split.teamA, ...split.teamB]) if (!tickets.includes(t)) botIds.add(t.id);
    // The policy of the zone that formed the match knows each ticket's window.
    const policy = this.router.zonePolicies.get(zone) ?? this.policy;
    const team = (side: Side, members: readonly Ticket[]): MatchTeam => {
      const players: MatchedPlayer[] = [];
      let sum = 0;
      for (const t of members) {
        const bot = botIds.has(t.id);
        for (const p of t.players) {
          const waitMs = bot ? 0 : Math.max(0, now - t.enqueuedAt);
          const role = split.roles?.get(p.id);
          const window = bot ? undefined : policy.windowOf?.(t, now);
          players.push({
            id: p.id,
            rating: p.rating,
            ticketId: t.id,
            waitMs,
            ...(bot ? { bot: true as const } : {}),
            ...(role !== undefined ? { role } : {}),
            ...(window ? { window } : {}),
            ...(p.identity !== undefined ? { identity: p.identity } : {}),
          });
          sum += p.rating;
        }
      }
      return { side, players, ticketIds: members.map((t) => t.id), ratingSum: sum };
    };
    const teams = [team("A", split.teamA), team("B", split.teamB)] as const;
    let min = Infinity;
    let max = -Infinity;
    let waitSum = 0;
    let maxWait = 0;
    let humans = 0;
    for (const p of [...teams[0].players, ...teams[1].players]) {
      if (p.bot) continue;
      humans++;
      min = Math.min(min, p.rating);
      max = Math.max(max, p.rating);
      waitSum += p.waitMs;
      maxWait = Math.max(maxWait, p.waitMs);
    }
    return {
      id,
      createdAt: now,
      teamSize: this.teamSize,
      teams,
      tickets: [...tickets],
      bots,
      ...(zone !== undefined ? { zone } : {}),
      quality: { imbalance: split.imbalance, spread: max - min, meanWaitMs: waitSum / humans, maxWaitMs: maxWait },
    };
  }

  private record(match: Match): Match {
    this.counters.matchesFormed++;
    this.counters.playersMatched += 2 * this.teamSize - match.bots;
    this.counters.botsUsed += match.bots;
    for (const team of match.teams) for (const p of team.players) if (!p.bot) this.recentWaits.push(p.waitMs);
    for (const t of match.tickets) {
      const wait = match.createdAt - t.enqueuedAt;
      windowFor(this.recentWaitsBySide, t.side ?? "any", this.recentWaits.capacity).push(wait);
      if (match.zone !== undefined) windowFor(this.recentWaitsByZone, match.zone, this.recentWaits.capacity).push(wait);
    }
    this.recentImbalance.push(match.quality.imbalance);
    this.recentOpponents?.record(match);
    return match;
  }
}

interface WaitingCount {
  tickets: number;
  players: number;
}

function addWaiting(counts: Map<string, WaitingCount>, key: string, sign: 1 | -1, players: number): void {
  const c = counts.get(key);
  if (c) {
    c.tickets += sign;
    c.players += sign * players;
  } else counts.set(key, { tickets: sign, players: sign * players });
}

/** Waiting tickets and players per class (a ticket in several zones counts in each), and recent waits. */
function classFigures(
  recent: ReadonlyMap<string, RecentWindow>,
  waiting: ReadonlyMap<string, WaitingCount>,
  classes: readonly string[],
): Record<string, ClassFigures> {
  const figures: Record<string, ClassFigures> = {};
  for (const c of classes) {
    const window = recent.get(c);
    const count = waiting.get(c);
    figures[c] = {
      waitingTickets: count?.tickets ?? 0,
      waitingPlayers: count?.players ?? 0,
      meanWaitMs: window?.mean() ?? 0,
      recentMatches: window?.size ?? 0,
    };
  }
  return figures;
}

function windowFor(windows: Map<string, RecentWindow>, key: string, capacity: number): RecentWindow {
  let window = windows.get(key);
  if (!window) windows.set(key, (window = new RecentWindow(capacity)));
  return window;
}
