/**
 * `roles` (Alman and McKay, "Theoretical Foundations of Team Matchmaking", sections 1.2.6 and 6):
 * the policy of a role queue. Forming the best role-valid game exactly is 3SUM-hard (their
 * Theorem 2), so by default the policy forms a rho-approximate one (Theorem 3),
 * rho = 2·k^(1/q)·(1 + alpha) for their imbalance f = alpha·d_p + v_q.
 *
 * - `mode: "approximate"` (default): the shortest-interval-with-distinct-representatives
 *   structure of {@link RoleWindows}: every minimal rating window that holds a role-valid game
 *   gives one candidate (the best role-valid split of that window's collection of 2k players, by
 *   the shared assembly), candidates sit in a min-heap keyed by imbalance and are re-derived
 *   only around each insertion or deletion. The cost is stated in {@link RoleWindows}: O(log n +
 *   k²) per operation while the pool holds no game, otherwise a sweep of the disturbed gap
 *   (typically a few windows long, up to the whole pool when a role is rare). With solo,
 *   choice-free tickets and the Alman–McKay imbalance, the game formed is within rho of the
 *   best role-valid game in the pool.
 * - `mode: "exact"`: brute force over every role-valid game in the pool (every set of tickets
 *   seating 2k players, each split by the exact assembly). For tests and small pools: `poll`
 *   refuses (throws `MatchmakerError("invalid_config")`) when more than
 *   {@link EXACT_ROLE_POOL_LIMIT} tickets wait.
 *
 * Parties (tickets of several players, every member listing roles) are supported in both
 * modes: they share a team, each member in a different role they accept. Side preferences are
 * honoured. The rho guarantee is proved for solo, choice-free pools only.
 *
 * More than two teams (the queue's `teams`): every team has one player per role; the windows
 * and the exact mode work the same over T·k seats, games are split by the shared assembly, and
 * the rho guarantee (a two-team proof) is not claimed. The search for games in windows holding a
 * party keeps up to C(2^k + T − 1, T) role states, so shapes above
 * {@link MAX_TEAM_ROLE_STATES} of them (3 teams of 7, 4 of 6, 5 of 5, 7 of 4, 13 of 3) are
 * refused at start-up. A role queue has no free-for-all (no teams to fill roles on).
 *
 * When to form (as `best-game`): the best candidate forms when its imbalance is at most
 * `threshold` + `thresholdGrowthPerSecond` × (its longest wait, in seconds); `threshold` defaults to
 * Infinity (form the best game at once whenever one exists). `poll` forms games until the best
 * remaining candidate does not qualify.
 */
import * as v from "valibot";
import { ArrivalIndex } from "../core/arrival-order.js";
import { MatchmakerError } from "../core/errors.js";
import { assembleGame } from "../core/game-assembly.js";
import type { ImbalanceFn } from "../core/imbalance.js";
import type { Policy, PolicyContext, PolicyDefinition, PolicyParams } from "../core/policy.js";
import { RoleTable } from "../core/role-rules.js";
import { describeShape, teamCountOf, twoTeams, type GameShape } from "../core/shape.js";
import { MAX_TEAM_ROLE_STATES, teamRoleStates } from "../core/team-role-search.js";
import type { Ticket } from "../core/types.js";
import { parseConfig, unknownKeyMessage } from "../core/validation.js";
import { RoleWindows } from "./shared/role-windows.js";

/** Largest pool (waiting tickets) the exact mode searches. */
export const EXACT_ROLE_POOL_LIMIT = 16;

const INF = 'or "inf"';
const RolesParams = v.strictObject(
  {
    mode: v.optional(v.picklist(["approximate", "exact"], 'must be "approximate" or "exact"'), "approximate"),
    threshold: v.optional(
      v.union([v.pipe(v.number(), v.minValue(0)), v.literal("inf")], `must be a number of at least 0, Infinity ${INF}`),
      Infinity,
    ),
    thresholdGrowthPerSecond: v.optional(
      v.pipe(v.number(), v.finite("must be a finite number"), v.minValue(0, "must not be negative")),
      0,
    ),
  },
  unknownKeyMessage,
);

/** Validated parameters of the `roles` policy. */
export interface RolesPolicyOptions {
  readonly mode: "approximate" | "exact";
  /** A game forms when its imbalance is at most threshold + thresholdGrowthPerSecond·(longest wait, s). */
  readonly threshold: number;
  readonly thresholdGrowthPerSecond: number;
}

/** A game the policy would form: its tickets and the imbalance of their best role-valid split. */
export interface RoleGameCandidate {
  readonly tickets: readonly Ticket[];
  readonly imbalance: number;
}

/**
 * The best role-valid game among `tickets` by brute force: every subset seating exactly a game
 * (`teams` teams of `teamSize`, two unless given), each split exactly. Ties keep the first subset
 * in the given order. Exponential: for small pools only.
 */
export function bestRoleGame(
  tickets: readonly Ticket[],
  teamSize: number,
  imbalance: ImbalanceFn,
  roles: readonly string[] | RoleTable,
  teams = 2,
): RoleGameCandidate | undefined {
  const table = roles instanceof RoleTable ? roles : new RoleTable(roles);
  const shape: GameShape = { ...twoTeams(teamSize), teams };
  const seats = teams * teamSize;
  const remaining: number[] = new Array(tickets.length + 1).fill(0);
  for (let i = tickets.length - 1; i >= 0; i--) remaining[i] = remaining[i + 1] + tickets[i].players.length;
  const chosen: Ticket[] = [];
  let best: RoleGameCandidate | undefined;
  const visit = (i: number, players: number): void => {
    if (players === seats) {
      const split = assembleGame(chosen, shape, imbalance, table);
      if (split?.imbalance !== undefined && (!best || split.imbalance < best.imbalance))
        best = { tickets: [...chosen], imbalance: split.imbalance };
      return;
    }
    if (i >= tickets.length || players + remaining[i] < seats) return;
    if (players + tickets[i].players.length <= seats) {
      chosen.push(tickets[i]);
      visit(i + 1, players + tickets[i].players.length);
      chosen.pop();
    }
    visit(i + 1, players);
  };
  visit(0, 0);
  return best;
}

/**
 * A lower bound of a game's imbalance from its lowest and highest rating: for Alman and McKay's
 * imbalance, f ≥ v_q ≥ k^(−1/q)·(skill spread)/2 (their Lemma 6, over the 2k players of the two
 * teams holding the lowest and the highest player); 0 otherwise.
 */
export function lemma6Bound(context: PolicyContext): ((low: number, high: number) => number) | undefined {
  const spec = context.imbalanceSpec;
  if (spec?.kind !== "alman-mckay") return undefined;
  const factor = context.teamSize ** (spec.q === Infinity ? 0 : -1 / spec.q) / 2;
  const skill = (r: number) => Math.max(0, r - spec.floor);
  // A hair below the bound, so that rounding in the imbalance itself never undercuts it.
  return (low, high) => factor * (skill(high) - skill(low)) * (1 - 1e-9);
}

export class RolesPolicy implements Policy {
  readonly name = "roles";
  readonly mode: "approximate" | "exact";
  private readonly table: RoleTable;
  private readonly windows: RoleWindows | undefined;
  private readonly pool = new ArrivalIndex();
  private readonly evaluate: (tickets: readonly Ticket[]) => number | undefined;

  constructor(
    private readonly context: PolicyContext & { readonly roles: readonly string[] },
    private readonly options: RolesPolicyOptions,
  ) {
    this.mode = options.mode;
    this.table = new RoleTable(context.roles);
    this.evaluate = (tickets) => assembleGame(tickets, context.shape, context.imbalance, this.table)?.imbalance;
    if (this.mode === "approximate")
      this.windows = new RoleWindows(this.table, this.evaluate, lemma6Bound(context), teamCountOf(context.shape));
  }

  /** Number of waiting tickets. */
  get size(): number {
    return this.pool.size;
  }

  add(ticket: Ticket): void {
    // A ticket already held moves to its new position (never held twice).
    this.remove(ticket.id);
    this.pool.add(ticket);
    this.windows?.add(ticket);
  }

  remove(ticketId: string): void {
    if (!this.pool.remove(ticketId)) return;
    this.windows?.remove([ticketId]);
  }

  poll(now: number): Ticket[][] {
    const games: Ticket[][] = [];
    for (let game = this.best(); game && this.qualifiesAt(game) <= now; game = this.best()) {
      games.push([...game.tickets]);
      for (const t of game.tickets) this.pool.remove(t.id);
      this.windows?.remove(game.tickets.map((t) => t.id));
    }
    return games;
  }

  nextWakeup(now: number): number | undefined {
    if (this.thresholdIsStatic()) return undefined;
    const game = this.best();
    if (!game) return undefined;
    const at = this.qualifiesAt(game);
    return at > now && Number.isFinite(at) ? at : undefined;
  }

  /**
   * The game `poll` would form first, if it qualifies (approximate mode: the heap's top; exact
   * mode: the best role-valid game of the pool, refused above {@link EXACT_ROLE_POOL_LIMIT}).
   */
  best(): RoleGameCandidate | undefined {
    if (this.windows) return this.windows.best();
    if (this.pool.size > EXACT_ROLE_POOL_LIMIT) {
      throw new MatchmakerError(
        "invalid_config",
        `roles policy (mode "exact"): ${this.pool.size} tickets wait, but the exact search is for pools of at most ${EXACT_ROLE_POOL_LIMIT}; use mode "approximate"`,
        "mode",
      );
    }
    const tickets = [...this.pool.oldest()];
    return bestRoleGame(
      tickets,
      this.context.teamSize,
      this.context.imbalance,
      this.table,
      teamCountOf(this.context.shape),
    );
  }

  private thresholdIsStatic(): boolean {
    return this.options.threshold === Infinity || this.options.thresholdGrowthPerSecond <= 0;
  }

  /** Time at which a candidate qualifies: f ≤ threshold + growth·(t − oldest)/1000 (poll and nextWakeup agree). */
  private qualifiesAt(game: RoleGameCandidate): number {
    if (game.imbalance <= this.options.threshold) return -Infinity;
    if (this.options.thresholdGrowthPerSecond <= 0) return Infinity;
    const oldest = game.tickets.reduce((m, t) => Math.min(m, t.enqueuedAt), Infinity);
    return oldest + (1000 * (game.imbalance - this.options.threshold)) / this.options.thresholdGrowthPerSecond;
  }
}

/** Refuses more than two teams whose role search would keep more than {@link MAX_TEAM_ROLE_STATES} states. */
function checkRoleStates(shape: GameShape, k: number): void {
  const teams = teamCountOf(shape);
  if (teams <= 2) return;
  const states = teamRoleStates(k, teams);
  if (states <= MAX_TEAM_ROLE_STATES) return;
  throw new MatchmakerError(
    "invalid_config",
    `roles policy: does not form games of ${describeShape(shape)} with ${k} roles: its search for role-valid games ` +
      `would keep up to ${states.toLocaleString("en")} role states, more than ${MAX_TEAM_ROLE_STATES.toLocaleString("en")}; use fewer teams or roles`,
    "teams",
  );
}

export const roles: PolicyDefinition = {
  name: "roles",
  summary:
    'Alman–McKay role-restricted queue: one player per role on each team; the shortest rating window with two players per role gives a rho-approximate game (mode "exact": brute force for small pools).',
  supportsRoles: true,
  shapes: ["two-teams", "teams"],
  create(context: PolicyContext, params: PolicyParams): Policy {
    const parsed = parseConfig("roles policy parameters", RolesParams, params);
    const { roles: queueRoles } = context;
    if (!queueRoles) {
      throw new MatchmakerError(
        "invalid_config",
        "roles policy: the queue declares no roles; set the queue's roles option",
        "roles",
      );
    }
    checkRoleStates(context.shape, queueRoles.length);
    return new RolesPolicy(
      { ...context, roles: queueRoles },
      {
        mode: parsed.mode,
        threshold: parsed.threshold === "inf" ? Infinity : parsed.threshold,
        thresholdGrowthPerSecond: parsed.thresholdGrowthPerSecond,
      },
    );
  },
};
