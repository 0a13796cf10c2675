/**
 * The engine: waiting tickets, one policy, shared team assembly, and statistics.
 * Pure and clock-injected: every call takes `now` (ms) from its driver, the Colyseus room
 * or the simulator, so both run literally the same code.
 */
import * as v from "valibot";
import { ArrivalIndex, compareArrival } from "./arrival-order.js";
import { playersOf } from "./assembly.js";
import { assembleGame, fitsGameWithBots, type GameSplit } from "./game-assembly.js";
import { MatchmakerError } from "./errors.js";
import {
  DEFAULT_IMBALANCE,
  imbalanceFunction,
  resolveImbalance,
  type ImbalanceFn,
  type ImbalanceSpec,
} from "./imbalance.js";
import { servesShape, type AcceptanceWindow, type Policy, type PolicyParams, type PolicyRegistry } from "./policy.js";
import { checkTicketRoles, RoleTable } from "./role-rules.js";
import {
  describeShape,
  hasSides,
  kindOf,
  maxPartyOf,
  minimumOf,
  seatsOf,
  shortSizes,
  shrunk,
  startsShort,
  teamSizeOf,
  type GameShape,
} from "./shape.js";
import { SideMix } from "./side-mix.js";
import { RecentWindow, type ClassFigures, type MatchmakerStats } from "./stats.js";
import { RecentOpponents } from "./recent-opponents.js";
import { blockedBetween, blockedPair, type BlockRule } from "./blocks.js";
import { reachedMaxWait, type Match, type MatchedPlayer, type MatchTeam, type Side, type Ticket } from "./types.js";
import { describeIssues, firstIssueField, unknownKeyMessage } from "./validation.js";
import { plainlyValidTicket } from "./ticket-check.js";
import { resolveZones, ticketZones, ZoneRouter, type ZoneOption, type ZoneSpec } from "./zones.js";
import { checkLatencies, LatencyZones } from "./zone-latency.js";
import { withTargetWait, type TargetWaitOptions } from "./target-wait.js";
import { checkTicketCriteria, dispersions, type Criterion } from "./criteria.js";

/** The fewest recent arrivals the side-mix flag looks at (enough to tell 0.4 choice-free from 0 by 7 standard errors). */
const SIDE_MIX_ARRIVALS = 200;

/** How many tickets per seat a bot game looks through for companions before it settles. */
const BOT_GAME_SCAN_PER_SEAT = 8;

/** How many overdue tickets a tick tries to start a short-handed game around. */
const SHORT_GAME_ANCHORS = 8;

/**
 * How many times in a row a tick polls the policy while it holds back tickets of blocked games (each
 * poll holds back at least one more); beyond that the rest waits for the next tick, which starts over.
 */
const MAX_BLOCK_ROUNDS = 8;

/**
 * The engine's options as its caller hands them over: checked, with defaults filled and the policy
 * chosen, by their owner (`src/options/`: each option's meaning, limits and default, and the rules
 * between options; users write `MatchmakerOptions` there). The engine checks only what it alone
 * can: the policy's name and parameters (against the registry it is given), the imbalance, the
 * zones.
 */
export interface EngineSettings {
  /** The shape of every game: teams or a free-for-all, and the minimum a game may start with. */
  readonly shape: GameShape;
  /**
   * With a shape whose minimum is below its full count: the wait (ms) after which a game starts
   * short-handed, with at least the minimum of humans.
   */
  readonly shortHandedAfterMs?: number;
  readonly statsWindow: number;
  readonly maxWaitMs?: number;
  readonly fillWithBots: boolean;
  readonly roles?: readonly string[];
  readonly avoidRecent?: number;
  readonly avoidRecentFallbackMs: number;
  readonly avoidRecentMs?: number;
  readonly maxLatencyMs?: number;
  readonly maxLatencyGrowthPerSecond?: number;
  readonly maxLatencyCapMs?: number;
  readonly criteria?: readonly Criterion[];
  readonly blocked?: BlockRule;
  readonly targetWait?: TargetWaitOptions;
  readonly matchIdPrefix?: string;
  readonly ratingRange?: { readonly min: number; readonly max: number };
  /** A policy name in the engine's registry, or a policy instance. */
  readonly policy: string | Policy;
  readonly params?: PolicyParams;
  readonly imbalance?: ImbalanceFn | ImbalanceSpec;
  readonly zones?: readonly ZoneOption[];
  readonly onPolicyError?: (error: MatchmakerError) => void;
}

const PlayerSchema = v.strictObject(
  {
    sessionId: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128)),
    rating: v.pipe(v.number(), v.finite("must be a finite number")),
    uncertainty: v.optional(
      v.pipe(v.number(), v.finite("must be a finite number"), v.minValue(0, "must not be negative")),
    ),
    roles: v.optional(v.array(v.string("must be a string"), "must be a list of role names")),
    playerId: v.optional(v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128))),
    // Each value is checked against the queue's zones by `LatencyZones` (zone-latency.ts).
    latencies: v.optional(v.record(v.string(), v.number())),
    // Each value is checked against the queue's criteria by `checkTicketCriteria` (criteria.ts).
    criteria: v.optional(v.record(v.string(), v.number())),
  },
  unknownKeyMessage,
);

function ticketSchema(shape: GameShape) {
  const most = maxPartyOf(shape);
  return v.object({
    id: v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(128)),
    players: v.pipe(
      v.array(PlayerSchema),
      v.minLength(1, "a ticket needs at least one player"),
      v.maxLength(
        most,
        shape.kind === "teams"
          ? `a party has at most teamSize = ${most} players`
          : `a party has at most ${most} players (the whole game)`,
      ),
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
 *
 * Built from settings already checked and a policy registry, both the caller's: users construct
 * it from plain options as `new Matchmaker(options)` (`src/options/matchmaker.ts`, the `engine`
 * entry's `Matchmaker`), which checks them and brings the default registry.
 */
export class Matchmaker {
  /** The shape of the queue's games. */
  readonly shape: GameShape;
  /** Players per team (1 in a free-for-all). */
  readonly teamSize: number;
  /** Players in a full game. */
  readonly seats: number;
  /** With a minimum below the full game: the wait after which a game starts short-handed. */
  readonly shortHandedAfterMs: number | undefined;
  readonly policy: Policy;
  readonly maxWaitMs: number | undefined;
  readonly fillWithBots: boolean;
  /** The queue's roles, when it is a role queue. */
  readonly roles: readonly string[] | undefined;
  /** The queue's criteria beside the rating (option `criteria`), when it declares any. */
  readonly criteria: readonly Criterion[] | undefined;
  private readonly roleTable: RoleTable | undefined;
  /** With `avoidRecent`: who recently played with whom. */
  readonly recentOpponents: RecentOpponents | undefined;
  /** With `blocked`: the accounts that never play in one match. */
  private readonly blocked: BlockRule | undefined;
  private readonly imbalance: ImbalanceFn;
  private readonly matchIdPrefix: string;
  private readonly onPolicyError?: (error: MatchmakerError) => void;
  /** The waiting tickets, by id and in arrival order. */
  private readonly tickets = new ArrivalIndex();
  /**
   * Waiting players whose session id differs from their ticket's id. A player waiting in a ticket
   * named after them (a solo, as the room makes them) is found through `tickets` instead, so the
   * common case keeps no second map.
   */
  private readonly otherPlayers = new Set<string>();
  /** Waiting accounts (`Player.playerId`), each with the id of the ticket it waits in: one account, one place. */
  private readonly accounts = new Map<string, string>();
  private readonly router: ZoneRouter;
  /** The queue's zones, when it has any. */
  readonly zones: readonly ZoneSpec[] | undefined;
  /** The zones each waiting ticket waits in (zoned queues only). */
  private readonly zonesOf = new Map<string, readonly string[]>();
  /** With `maxLatencyMs`: each ticket's zones from its players' latencies, widening with its wait. */
  private readonly latency: LatencyZones | undefined;
  private readonly sideMix: SideMix;
  private readonly recentWaitsBySide = new Map<string, RecentWindow>();
  private readonly recentWaitsByZone = new Map<string, RecentWindow>();
  /** Waiting tickets and players per side preference and per zone, kept as tickets come and go. */
  private readonly waitingBySide = new Map<string, WaitingCount>();
  /** The entries of `waitingBySide`, each made at the start and then changed in place (no lookup per join). */
  private readonly waitingA: WaitingCount = { tickets: 0, players: 0 };
  private readonly waitingB: WaitingCount = { tickets: 0, players: 0 };
  private readonly waitingAny: WaitingCount = { tickets: 0, players: 0 };
  private readonly waitingByZone = new Map<string, WaitingCount>();
  private readonly validTicket: ReturnType<typeof ticketSchema>;
  private waitingPlayerCount = 0;
  private matchSeq = 0;
  private readonly recentWaits: RecentWindow;
  private readonly recentImbalance: RecentWindow;
  private readonly recentSpread: RecentWindow;
  private counters = {
    matchesFormed: 0,
    playersMatched: 0,
    botsUsed: 0,
    ticketsCancelled: 0,
    ticketsRequeued: 0,
    policyErrors: 0,
    blockedGames: 0,
  };

  constructor(settings: EngineSettings, registry: PolicyRegistry) {
    this.maxWaitMs = settings.maxWaitMs;
    this.fillWithBots = settings.fillWithBots;
    this.shape = settings.shape;
    this.teamSize = teamSizeOf(settings.shape);
    this.seats = seatsOf(settings.shape);
    this.shortHandedAfterMs = startsShort(settings.shape) ? settings.shortHandedAfterMs : undefined;
    this.roles = settings.roles;
    this.criteria = settings.criteria;
    this.roleTable = settings.roles && new RoleTable(settings.roles);
    const resolvedImbalance =
      typeof settings.imbalance === "function"
        ? undefined
        : resolveImbalance(settings.imbalance ?? DEFAULT_IMBALANCE, settings.ratingRange?.min);
    this.imbalance =
      typeof settings.imbalance === "function" ? settings.imbalance : imbalanceFunction(resolvedImbalance!);
    this.matchIdPrefix = settings.matchIdPrefix ?? "m";
    this.onPolicyError = settings.onPolicyError;
    this.blocked = settings.blocked;
    const window = settings.statsWindow;
    this.recentWaits = new RecentWindow(window * this.seats);
    this.recentImbalance = new RecentWindow(window);
    this.recentSpread = new RecentWindow(window);
    this.sideMix = new SideMix(Math.max(SIDE_MIX_ARRIVALS, window));
    this.validTicket = ticketSchema(this.shape);
    this.waitingBySide.set("A", this.waitingA).set("B", this.waitingB).set("any", this.waitingAny);
    this.recentOpponents =
      settings.avoidRecent === undefined
        ? undefined
        : new RecentOpponents(settings.avoidRecent, settings.avoidRecentFallbackMs, undefined, settings.avoidRecentMs);
    const policy = settings.policy;
    this.zones = settings.zones === undefined ? undefined : resolveZones(settings.zones);
    this.latency =
      settings.maxLatencyMs !== undefined && this.zones
        ? new LatencyZones(
            {
              maxLatencyMs: settings.maxLatencyMs,
              ...(settings.maxLatencyGrowthPerSecond !== undefined
                ? { maxLatencyGrowthPerSecond: settings.maxLatencyGrowthPerSecond }
                : {}),
              ...(settings.maxLatencyCapMs !== undefined ? { maxLatencyCapMs: settings.maxLatencyCapMs } : {}),
            },
            this.zones.map((z) => z.name),
          )
        : undefined;
    if (typeof policy === "string") checkPolicyShape(registry, policy, this.shape);
    const makeOwnPolicy = (): Policy =>
      typeof policy === "string"
        ? registry.create(
            policy,
            {
              shape: this.shape,
              seats: this.seats,
              teamSize: this.teamSize,
              imbalance: this.imbalance,
              ...(resolvedImbalance ? { imbalanceSpec: resolvedImbalance } : {}),
              ...(this.maxWaitMs !== undefined ? { maxWaitMs: this.maxWaitMs } : {}),
              ...(settings.ratingRange ? { ratingRange: settings.ratingRange } : {}),
              ...(this.roles ? { roles: this.roles } : {}),
              ...(this.criteria ? { criteria: this.criteria } : {}),
              ...(this.recentOpponents ? { avoid: this.recentOpponents } : {}),
            },
            settings.params,
          )
        : policy;
    // With a target wait, each zone's policy has its patience turned by its own controller.
    const makePolicy = (): Policy =>
      settings.targetWait ? withTargetWait(makeOwnPolicy(), settings.targetWait, this.seats) : makeOwnPolicy();
    this.router = new ZoneRouter(this.zones, makePolicy);
    this.policy = this.router.zonePolicies.values().next().value!;
  }

  /** Each zone's policy instance (one entry, keyed `undefined`, in a queue without zones). */
  get zonePolicies(): ReadonlyMap<string | undefined, Policy> {
    return this.router.zonePolicies;
  }

  /** With `maxLatencyMs`: the zones players give their latencies to (every zone of the queue); else undefined. */
  get latencyZones(): readonly string[] | undefined {
    return this.latency?.zones;
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
    yield* this.tickets.oldest();
  }

  /** The id of the ticket account `playerId` waits in (undefined: it does not wait). */
  ticketOfAccount(playerId: string): string | undefined {
    return this.accounts.get(playerId);
  }

  /**
   * Start a ticket waiting. Throws `MatchmakerError` (and changes nothing) for a malformed
   * ticket, a ticket id already waiting (`duplicate_ticket`), a player already waiting in another
   * ticket or twice in this one (`duplicate_player`), or an account (`playerId`) that already
   * waits, in another ticket or twice in this one (`duplicate_account`): one account, one place.
   */
  enqueue(ticket: Ticket, now: number): void {
    this.enter(ticket, now);
    this.sideMix.arrived(ticket.side);
  }

  private enter(ticket: Ticket, now: number): void {
    // The schema runs only for a ticket that is not plainly well-formed (it then words the error).
    if (!plainlyValidTicket(ticket, maxPartyOf(this.shape))) {
      const result = v.safeParse(this.validTicket, ticket);
      if (!result.success)
        throw new MatchmakerError(
          "invalid_ticket",
          `invalid ticket: ${describeIssues(result.issues)}`,
          firstIssueField(result.issues),
        );
    }
    if (ticket.side !== undefined && !hasSides(this.shape))
      throw new MatchmakerError(
        "invalid_ticket",
        `invalid ticket: side: this queue's games (${describeShape(this.shape)}) have no sides`,
        "side",
      );
    let zones: readonly string[] | undefined;
    let allowed: readonly string[] | undefined;
    if (this.zones) {
      zones = ticketZones(ticket, this.zones);
      // With a latency rule, only the zones all its players reach (latencies are ignored otherwise).
      if (this.latency) [allowed, zones] = [zones, this.latency.reachable(ticket, zones, now)];
    } else if (ticket.zones && ticket.zones.length > 0) {
      throw new MatchmakerError("invalid_ticket", "invalid ticket: zones: this queue has no zones", "zones");
    }
    checkTicketRoles(ticket, this.roleTable);
    if (this.criteria) checkTicketCriteria(ticket, this.criteria);
    const players = ticket.players;
    for (let i = 0; i < players.length; i++) {
      const id = players[i].sessionId;
      // (The set is nearly always empty: asked only then, it need not hash the id.)
      let twice =
        (this.otherPlayers.size > 0 && this.otherPlayers.has(id)) || (id !== ticket.id && this.namedAfter(id));
      for (let j = 0; j < i && !twice; j++) twice = players[j].sessionId === id;
      if (twice) {
        // A waiting ticket id is reported first.
        if (this.tickets.has(ticket.id)) throw duplicateTicket(ticket.id);
        throw new MatchmakerError("duplicate_player", `player "${id}" is already waiting`, "players");
      }
      const account = players[i].playerId;
      if (account === undefined) continue;
      let held = this.accounts.size > 0 && this.accounts.has(account);
      for (let j = 0; j < i && !held; j++) held = players[j].playerId === account;
      if (held) {
        if (this.tickets.has(ticket.id)) throw duplicateTicket(ticket.id);
        throw new MatchmakerError(
          "duplicate_account",
          `playerId: account "${account}" is already waiting in this queue`,
          "playerId",
        );
      }
    }
    if (!this.tickets.add(ticket)) throw duplicateTicket(ticket.id);
    if (zones) this.zonesOf.set(ticket.id, zones);
    this.admit(ticket, now);
    if (allowed && zones) this.latency!.schedule(ticket, allowed, zones);
  }

  /**
   * Put tickets back after a match could not be started, keeping their original enqueue time
   * so they stand ahead of newcomers. Returns the tickets that could not be put back (their
   * id, a player or an account is waiting again meanwhile), which the caller should report.
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

  /**
   * The driver's call, on every join and at `nextWakeup`: poll each zone's policy (`Policy.poll`
   * only proposes tickets), assemble and record the matches, form bot games that are due, and
   * return the matches; their tickets no longer wait. Named for the driver's clock tick, distinct
   * from the policy's `poll` because it does more than ask.
   */
  tick(now: number): Match[] {
    if (this.latency) this.widenLatency(now);
    const matches: Match[] = [];
    if (this.blocked) this.formAroundBlocks(now, matches);
    else this.formProposals(now, matches, undefined);
    if (this.shortHandedAfterMs !== undefined) matches.push(...this.shortGames(now));
    if (this.fillWithBots) matches.push(...this.botGames(now));
    return matches;
  }

  /**
   * One poll of the policy: its proposals checked, assembled and recorded onto `matches`. With
   * `held` (a queue with `blocked`), a proposal with a blocked pair is not formed: its newer ticket
   * of the pair is held back (pushed onto `held.hidden`, the pair onto `held.pairs`)
   * and the others go back to the policy. Returns whether a proposal was held back so.
   */
  private formProposals(now: number, matches: Match[], held: HeldBack | undefined): boolean {
    /** Tickets handed back to the policy this poll (each once, even if proposed in two games). */
    let handedBack: Set<string> | undefined;
    let blockedGame = false;
    for (const { zone, tickets: proposal } of this.router.poll(now)) {
      let split: GameSplit;
      try {
        split = this.checkProposal(proposal);
      } catch (error) {
        if (!(error instanceof MatchmakerError)) throw error;
        this.counters.policyErrors++;
        this.handBack(proposal, (handedBack ??= new Set()), undefined, now);
        this.onPolicyError?.(error);
        continue;
      }
      const pair = held && blockedPair(proposal, this.blocked!);
      if (pair) {
        this.counters.blockedGames++;
        const [a, b] = pair;
        const [older, newer] = this.compareWaiting(a, b) < 0 ? [a, b] : [b, a];
        this.handBack(proposal, (handedBack ??= new Set()), newer, now);
        held!.hidden.push(newer);
        held!.pairs.push([older, newer]);
        blockedGame = true;
        continue;
      }
      const played = this.latency ? this.latencyZone(proposal, zone) : zone;
      for (const t of proposal) this.forget(t.id);
      const match = this.buildMatch(split, proposal, 0, now, zone);
      matches.push(this.record(played === zone ? match : { ...match, zone: played }));
    }
    return blockedGame;
  }

  /**
   * With `blocked`, whatever the policy: a game with a blocked pair is never formed, and the
   * tickets around it still play. The newer ticket of the pair is held back from the policy, which
   * is polled again, so the others form the games they can without it (the older keeps its turn).
   * Then, if any was held back, a second turn: everyone held back returns and, among the tickets
   * of the blocked pairs seen, those blocked with the most of the others step aside instead, until
   * no two left are blocked (so that two players blocked with one third still meet). At the end of the tick everyone held back returns
   * to the policy at its place. Each turn polls at most {@link MAX_BLOCK_ROUNDS} times in a row;
   * the next tick starts over.
   */
  private formAroundBlocks(now: number, matches: Match[]): void {
    const held: HeldBack = { hidden: [], pairs: [] };
    for (let round = 1; this.formProposals(now, matches, held) && round < MAX_BLOCK_ROUNDS; round++);
    if (held.hidden.length === 0) return;
    const back = held.hidden.splice(0);
    const aside = this.blockCover(held.pairs.splice(0));
    for (const ticket of back) if (!aside.has(ticket)) this.unhide(ticket, now);
    for (const ticket of aside) {
      if (!back.includes(ticket)) this.router.remove(ticket.id);
      held.hidden.push(ticket);
    }
    for (let round = 1; this.formProposals(now, matches, held) && round < MAX_BLOCK_ROUNDS; round++);
    for (const ticket of held.hidden) this.unhide(ticket, now);
  }

  /**
   * Tickets that step aside for the second turn: among the tickets of the blocked pairs seen (both
   * still waiting), a cover of every blocked pair between them, taken greedily, the ticket blocked
   * with the most of the others first (the older on a tie: it had its turn). The rest of them are
   * then free of blocks among themselves.
   */
  private blockCover(pairs: ReadonlyArray<readonly [Ticket, Ticket]>): Set<Ticket> {
    const involved = [...new Set(pairs.flat())]
      .filter((ticket) => this.waits(ticket))
      .sort((a, b) => this.compareWaiting(a, b));
    const edges = new Map<Ticket, Set<Ticket>>(involved.map((ticket) => [ticket, new Set()]));
    for (let i = 0; i < involved.length; i++)
      for (let j = 0; j < i; j++)
        if (blockedBetween(involved[i]!, involved[j]!, this.blocked!)) {
          edges.get(involved[i]!)!.add(involved[j]!);
          edges.get(involved[j]!)!.add(involved[i]!);
        }
    const cover = new Set<Ticket>();
    for (;;) {
      let most: Ticket | undefined;
      for (const ticket of involved) if (edges.get(ticket)!.size > (most ? edges.get(most)!.size : 0)) most = ticket;
      if (!most) return cover;
      cover.add(most);
      for (const other of edges.get(most)!) edges.get(other)!.delete(most);
      edges.get(most)!.clear();
    }
  }

  /** True while `ticket` waits (as this very ticket object). */
  private waits(ticket: Ticket): boolean {
    return this.tickets.get(ticket.id) === ticket;
  }

  /** Arrival order of two waiting tickets. */
  private compareWaiting(a: Ticket, b: Ticket): number {
    return compareArrival(this.tickets.arrival(a.id)!, this.tickets.arrival(b.id)!);
  }

  /** A ticket held back from the policy goes back to it, if it still waits. */
  private unhide(ticket: Ticket, now: number): void {
    if (this.waits(ticket)) this.router.add(ticket, this.zonesOf.get(ticket.id), now);
  }

  /**
   * A proposal not formed: each of its still-waiting tickets goes back to the policy once, as the
   * engine holds it, except `keep` (held back by the caller).
   */
  private handBack(proposal: readonly Ticket[], handedBack: Set<string>, keep: Ticket | undefined, now: number): void {
    for (const id of new Set(proposal.map((t) => t.id))) {
      const ticket = this.tickets.get(id);
      if (ticket && id !== keep?.id && !(this.zones === undefined && handedBack.has(id)))
        this.router.add(ticket, this.zonesOf.get(id), now);
      handedBack.add(id);
    }
  }

  /** When the driver should call `tick` next even if nobody joins (undefined: only on joins). */
  nextWakeup(now: number): number | undefined {
    let policyWakeup = this.router.nextWakeup(now);
    const widens = this.latency?.nextAt();
    if (widens !== undefined) policyWakeup = policyWakeup === undefined ? widens : Math.min(policyWakeup, widens);
    const oldest = this.tickets.first();
    if (!oldest) return policyWakeup;
    // A short-handed game is due when the oldest ticket reaches the wait; once past it, arrivals
    // (which tick anyway) are what can complete the minimum.
    const shortAt = this.shortHandedAfterMs === undefined ? undefined : oldest.enqueuedAt + this.shortHandedAfterMs;
    if (shortAt !== undefined && shortAt > now && this.waitingPlayerCount >= minimumOf(this.shape))
      policyWakeup = policyWakeup === undefined ? shortAt : Math.min(policyWakeup, shortAt);
    if (!this.fillWithBots) return policyWakeup;
    const botWakeup = oldest.enqueuedAt + this.maxWaitMs!;
    return policyWakeup === undefined ? botWakeup : Math.min(policyWakeup, botWakeup);
  }

  stats(now: number): MatchmakerStats {
    const [p50WaitMs, p95WaitMs, p99WaitMs] = this.recentWaits.percentiles([50, 95, 99]);
    const oldest = this.tickets.first();
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
      meanSpread: this.recentSpread.mean(),
      recentMatches: this.recentSpread.size,
      oldestWaitMs: oldest ? Math.max(0, now - oldest.enqueuedAt) : 0,
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

  /** Start holding a ticket already added to `tickets`. */
  private admit(ticket: Ticket, now: number): void {
    for (const p of ticket.players) {
      if (p.sessionId !== ticket.id) this.otherPlayers.add(p.sessionId);
      if (p.playerId !== undefined) this.accounts.set(p.playerId, ticket.id);
    }
    const players = ticket.players.length;
    this.waitingPlayerCount += players;
    this.countWaiting(ticket, 1, players);
    this.router.add(ticket, this.zones && this.zonesOf.get(ticket.id), now);
  }

  /** True when a waiting ticket is named `sessionId` and holds that player. */
  private namedAfter(sessionId: string): boolean {
    const named = this.tickets.get(sessionId);
    if (!named) return false;
    for (const p of named.players) if (p.sessionId === sessionId) return true;
    return false;
  }

  /** Stop holding a waiting ticket; returns it (undefined if it was not waiting). */
  private forget(ticketId: string): Ticket | undefined {
    const ticket = this.tickets.remove(ticketId);
    if (!ticket) return undefined;
    // (Nearly always empty: a solo's ticket is named after its player.)
    if (this.otherPlayers.size > 0) {
      for (const p of ticket.players) if (p.sessionId !== ticketId) this.otherPlayers.delete(p.sessionId);
    }
    if (this.accounts.size > 0)
      for (const p of ticket.players) if (p.playerId !== undefined) this.accounts.delete(p.playerId);
    const players = ticket.players.length;
    this.waitingPlayerCount -= players;
    this.countWaiting(ticket, -1, players);
    if (this.zones) this.zonesOf.delete(ticketId);
    this.latency?.forget(ticketId);
    return ticket;
  }

  /** With `maxLatencyMs`: tickets whose widened maximum now reaches more zones start waiting there too. */
  private widenLatency(now: number): void {
    for (const { ticket, zones } of this.latency!.widen(now)) {
      if (!this.waits(ticket)) continue;
      this.zonesOf.set(ticket.id, [...this.zonesOf.get(ticket.id)!, ...zones]);
      for (const zone of zones) addWaiting(this.waitingByZone, zone, 1, ticket.players.length);
      this.router.add(ticket, zones, now);
    }
  }

  /** With `maxLatencyMs`: the zone a proposed game plays in, the best-reached of those all its tickets wait in. */
  private latencyZone(tickets: readonly Ticket[], formedIn: string | undefined): string | undefined {
    let common = this.zonesOf.get(tickets[0].id) ?? [];
    for (const t of tickets) common = common.filter((z) => this.zonesOf.get(t.id)?.includes(z));
    return this.latency!.bestZone(tickets, common) ?? formedIn;
  }

  /** Add (+1) or take away (−1) a ticket of `players` players in the per-side and per-zone waiting counts. */
  private countWaiting(ticket: Ticket, sign: 1 | -1, players: number): void {
    const bySide = ticket.side === "A" ? this.waitingA : ticket.side === "B" ? this.waitingB : this.waitingAny;
    bySide.tickets += sign;
    bySide.players += sign * players;
    if (!this.zones) return;
    for (const zone of this.zonesOf.get(ticket.id) ?? []) addWaiting(this.waitingByZone, zone, sign, players);
  }

  /** A team split for the proposal; throws `MatchmakerError("policy_contract")` if the proposal breaks the contract. */
  private checkProposal(proposal: readonly Ticket[]): GameSplit {
    const refuse = (problem: string): never => {
      throw new MatchmakerError("policy_contract", `policy ${this.policy.name}: ${problem}`, "policy");
    };
    const ids = new Set<string>();
    for (const t of proposal) {
      if (!this.waits(t)) refuse(`proposed ticket "${t.id}" is not waiting`);
      if (ids.has(t.id)) refuse(`proposed ticket "${t.id}" twice`);
      ids.add(t.id);
    }
    return (
      assembleGame(proposal, this.shape, this.imbalance, this.roleTable) ??
      refuse(
        this.roleTable
          ? `proposed tickets cannot form ${describeShape(this.shape)} with one player per role`
          : `proposed tickets cannot form ${describeShape(this.shape)}`,
      )
    );
  }

  /**
   * Bot-filled games for tickets that reached the maximum wait, oldest first: each takes the
   * overdue ticket, then the oldest other tickets that still fit, and bots for the empty seats.
   */
  private botGames(now: number): Match[] {
    const matches: Match[] = [];
    for (;;) {
      const oldest = this.tickets.first();
      if (!oldest || !reachedMaxWait(oldest, this.maxWaitMs!, now)) return matches;
      const { chosen, common } = this.gather(oldest, this.shape);
      matches.push(this.startFull(chosen, common, now));
    }
  }

  /**
   * Short-handed games (a shape whose minimum is below its full count): around each ticket that
   * waited `shortHandedAfterMs`, oldest first, the largest game the waiting tickets can form with
   * at least the minimum of humans; with `fillWithBots`, bots take the empty seats, otherwise they
   * stay empty (`Match.emptySeats`).
   */
  private shortGames(now: number): Match[] {
    const matches: Match[] = [];
    const after = this.shortHandedAfterMs!;
    const minimum = minimumOf(this.shape);
    if (this.waitingPlayerCount < minimum) return matches;
    const anchors: Ticket[] = [];
    for (const t of this.tickets.oldest(SHORT_GAME_ANCHORS)) {
      if (!reachedMaxWait(t, after, now)) break;
      anchors.push(t);
    }
    for (const anchor of anchors) {
      if (!this.waits(anchor) || this.waitingPlayerCount < minimum) continue;
      // Everyone who could share a game with the anchor: a full game if they fill one.
      const pool = this.gather(anchor, this.shape);
      if (pool.players < minimum) continue;
      if (this.fillWithBots || pool.players === this.seats) {
        matches.push(this.startFull(pool.chosen, pool.common, now));
        continue;
      }
      for (const size of shortSizes(this.shape)) {
        const shape = shrunk(this.shape, size);
        if (seatsOf(shape) > pool.players) continue;
        const { chosen, players, common } = this.gather(anchor, shape, pool.chosen);
        if (players !== seatsOf(shape)) continue;
        const split = assembleGame(chosen, shape, this.imbalance, this.roleTable);
        if (!split) continue;
        matches.push(this.start(split, chosen, 0, now, common, this.nextMatchId(), this.seats - players));
        break;
      }
    }
    return matches;
  }

  /**
   * The overdue `anchor` and the oldest other tickets (of `from`, else of the queue) that still
   * fit one game of `shape` with bots in the seats left (sharing a zone with the anchor, blocked
   * from nobody chosen), until the game is full; scanning the queue is bounded (a pool that could
   * fill the game would have been matched already).
   */
  private gather(
    anchor: Ticket,
    shape: GameShape,
    from?: readonly Ticket[],
  ): { chosen: Ticket[]; players: number; common: readonly string[] | undefined } {
    const chosen: Ticket[] = [anchor];
    let players = anchor.players.length;
    // In a zoned queue everyone in the game must accept one common zone, the anchor's first.
    let common = this.zonesOf.get(anchor.id);
    const seats = seatsOf(shape);
    if (!fitsGameWithBots(chosen, shape, this.roleTable)) return { chosen: [], players: 0, common };
    for (const t of from ?? this.tickets.oldest(BOT_GAME_SCAN_PER_SEAT * seats)) {
      if (players === seats) break;
      if (t === anchor) continue;
      const shared = common && common.filter((z) => this.zonesOf.get(t.id)!.includes(z));
      if (shared && shared.length === 0) continue;
      if (this.blocked && chosen.some((c) => blockedBetween(c, t, this.blocked!))) continue;
      if (!fitsGameWithBots([...chosen, t], shape, this.roleTable)) continue;
      common = shared;
      chosen.push(t);
      players += t.players.length;
    }
    return { chosen, players, common };
  }

  /** A full game of `chosen`, bots in its empty seats (none when `chosen` fills it). */
  private startFull(chosen: readonly Ticket[], common: readonly string[] | undefined, now: number): Match {
    const id = this.nextMatchId();
    const humans = playersOf(chosen);
    const meanRating = humans.reduce((sum, p) => sum + p.rating, 0) / humans.length;
    const bots: Ticket[] = [];
    for (let i = 0; i < this.seats - humans.length; i++) {
      const botId = `${id}~bot${i + 1}`;
      // In a role queue a bot plays whichever role is left.
      bots.push({
        id: botId,
        players: [{ sessionId: botId, rating: meanRating, ...(this.roles ? { roles: this.roles } : {}) }],
        enqueuedAt: now,
      });
    }
    const split = assembleGame([...chosen, ...bots], this.shape, this.imbalance, this.roleTable);
    // An invariant, not a refusal: fitsGameWithBots chose tickets that bots can complete.
    if (!split) throw new Error(`invariant broken: bot game ${id} cannot be assembled`);
    return this.start(split, chosen, bots.length, now, common, id, 0);
  }

  /** Take `chosen` out of the queue and record their game. */
  private start(
    split: GameSplit,
    chosen: readonly Ticket[],
    bots: number,
    now: number,
    common: readonly string[] | undefined,
    id: string,
    emptySeats: number,
  ): Match {
    const played = this.latency && common ? this.latency.bestZone(chosen, common) : common?.[0];
    for (const t of chosen) {
      this.forget(t.id);
      this.router.remove(t.id);
    }
    return this.record(this.buildMatch(split, chosen, bots, now, played, id, emptySeats));
  }

  private nextMatchId(): string {
    return `${this.matchIdPrefix}-${++this.matchSeq}`;
  }

  private buildMatch(
    split: GameSplit,
    tickets: readonly Ticket[],
    bots: number,
    now: number,
    zone: string | undefined,
    id = this.nextMatchId(),
    emptySeats = 0,
  ): Match {
    const botIds = new Set<string>();
    if (bots > 0) for (const team of split.teams) for (const t of team) if (!tickets.includes(t)) botIds.add(t.id);
    // The policy of the zone that formed the match knows each ticket's window.
    const policy = this.router.zonePolicies.get(zone) ?? this.policy;
    const matched = (t: Ticket, p: Ticket["players"][number]): MatchedPlayer => {
      const bot = botIds.has(t.id);
      const role = split.roles?.get(p.sessionId);
      const window = bot ? undefined : policy.windowOf?.(t, now);
      return {
        sessionId: p.sessionId,
        rating: p.rating,
        ticketId: t.id,
        waitMs: bot ? 0 : Math.max(0, now - t.enqueuedAt),
        ...(bot ? { bot: true as const } : {}),
        ...(role !== undefined ? { role } : {}),
        ...(window ? { window } : {}),
        ...(p.playerId !== undefined ? { playerId: p.playerId } : {}),
        ...(p.criteria ? { criteria: p.criteria } : {}),
      };
    };
    const teams: MatchTeam[] = [];
    const sides = hasSides(this.shape);
    if (this.shape.kind === "free-for-all") {
      // Every player is a team of one; a party's members play in the same game, each for themselves.
      for (const [t] of split.teams)
        for (const p of t.players) teams.push({ players: [matched(t, p)], ticketIds: [t.id], ratingSum: p.rating });
    } else {
      split.teams.forEach((members, i) => {
        const players: MatchedPlayer[] = [];
        let sum = 0;
        for (const t of members)
          for (const p of t.players) {
            players.push(matched(t, p));
            sum += p.rating;
          }
        const side: Side | undefined = sides ? (i === 0 ? "A" : "B") : undefined;
        teams.push({ ...(side ? { side } : {}), players, ticketIds: members.map((t) => t.id), ratingSum: sum });
      });
    }
    let min = Infinity;
    let max = -Infinity;
    let waitSum = 0;
    let maxWait = 0;
    let humans = 0;
    for (const team of teams)
      for (const p of team.players) {
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
      shape: this.shape,
      teams,
      tickets: [...tickets],
      bots,
      ...(emptySeats > 0 ? { emptySeats } : {}),
      ...(zone !== undefined ? { zone } : {}),
      quality: {
        ...(split.imbalance !== undefined ? { imbalance: split.imbalance } : {}),
        spread: max - min,
        meanWaitMs: waitSum / humans,
        maxWaitMs: maxWait,
        ...(this.criteria ? { dispersion: this.dispersionOf(teams) } : {}),
      },
    };
  }

  /** Each criterion's dispersion among the human players of `teams`. */
  private dispersionOf(teams: readonly MatchTeam[]): Readonly<Record<string, number>> {
    return dispersions(
      teams.flatMap((t) => t.players.filter((p) => !p.bot)),
      this.criteria!,
    );
  }

  private record(match: Match): Match {
    this.counters.matchesFormed++;
    this.counters.playersMatched += this.seats - match.bots - (match.emptySeats ?? 0);
    this.counters.botsUsed += match.bots;
    for (const team of match.teams) for (const p of team.players) if (!p.bot) this.recentWaits.push(p.waitMs);
    for (const t of match.tickets) {
      const wait = match.createdAt - t.enqueuedAt;
      windowFor(this.recentWaitsBySide, t.side ?? "any", this.recentWaits.capacity).push(wait);
      if (match.zone !== undefined) windowFor(this.recentWaitsByZone, match.zone, this.recentWaits.capacity).push(wait);
    }
    if (match.quality.imbalance !== undefined) this.recentImbalance.push(match.quality.imbalance);
    this.recentSpread.push(match.quality.spread);
    this.recentOpponents?.record(match);
    return match;
  }

  /**
   * A waiting ticket's acceptance window: its zone policy's, or in several zones the hull of
   * theirs (it may be matched in any of them); undefined when no policy has one.
   */
  acceptanceWindow(ticketId: string, now: number): AcceptanceWindow | undefined {
    let hull: AcceptanceWindow | undefined;
    for (const policy of this.router.zonePolicies.values()) {
      const w = policy.acceptanceWindow?.(ticketId, now);
      if (w)
        hull = hull ? { min: Math.min(hull.min, w.min), max: Math.max(hull.max, w.max) } : { min: w.min, max: w.max };
    }
    return hull;
  }

  /**
   * Check that a player of `rating` accepting `zones` (absent: every zone) could wait in this
   * queue's zones: the same check `enqueue` makes, for a join refused before it becomes a ticket.
   * Throws `MatchmakerError("invalid_ticket", "<what>: zones: …", "zones")`, e.g. `zones: zone
   * "advanced" needs a rating of at least 1800`; a queue without zones accepts every rating.
   */
  checkZoneBand(rating: number, zones: readonly string[] | undefined, what = "invalid ticket"): void {
    if (!this.zones) return;
    const probe: Ticket = {
      id: "probe",
      players: [{ sessionId: "probe", rating }],
      enqueuedAt: 0,
      ...(zones ? { zones } : {}),
    };
    ticketZones(probe, this.zones, what);
  }

  /**
   * With `maxLatencyMs`: check that a joining player's `latencies` are complete and reach some zone
   * it may enter (by name and rating) within the maximum. Throws `MatchmakerError("invalid_ticket",
   * "<what>: latencies…", "latencies…")`; does nothing in a queue that does not choose zones by latency.
   */
  checkLatencyReach(
    rating: number,
    latencies: Readonly<Record<string, number>> | undefined,
    zones: readonly string[] | undefined,
    what = "invalid ticket",
  ): void {
    if (!this.latency || !this.zones) return;
    checkLatencies(latencies, this.latency.zones, what);
    const probe: Ticket = {
      id: "probe",
      players: [{ sessionId: "probe", rating, latencies: latencies! }],
      enqueuedAt: 0,
      ...(zones ? { zones } : {}),
    };
    this.latency.reachable(probe, ticketZones(probe, this.zones, what), 0, what);
  }
}

function duplicateTicket(id: string): MatchmakerError {
  return new MatchmakerError("duplicate_ticket", `ticket "${id}" is already waiting`, "id");
}

interface WaitingCount {
  tickets: number;
  players: number;
}

/**
 * Refuses, at start-up, a policy whose definition does not serve the queue's shape (a
 * definition that declares no shapes serves two teams only).
 */
function checkPolicyShape(registry: PolicyRegistry, name: string, shape: GameShape): void {
  const definition = registry.all().find((d) => d.name === name);
  if (!definition) return; // the registry names an unknown policy when it creates it
  if (servesShape(definition, kindOf(shape))) return;
  const serving = registry
    .all()
    .filter((d) => servesShape(d, kindOf(shape)))
    .map((d) => d.name);
  throw new MatchmakerError(
    "invalid_config",
    `policy "${name}" does not form games of ${describeShape(shape)}` +
      (serving.length ? `; policies that do: ${serving.join(", ")}` : ""),
    "policy",
  );
}

/** Tickets held back from the policy during one tick (a queue with `blocked`; see `formAroundBlocks`). */
interface HeldBack {
  /** Held back until the end of the tick. */
  readonly hidden: Ticket[];
  /** The blocked pairs seen, `[older, newer]`. */
  readonly pairs: Array<readonly [Ticket, Ticket]>;
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
