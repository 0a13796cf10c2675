/**
 * The policy contract and the registry that makes policies selectable by name.
 * A policy decides which tickets play together and when; assembly decides the teams.
 */
import { MatchmakerError } from "./errors.js";
import type { Criterion } from "./criteria.js";
import type { ImbalanceFn, ResolvedImbalance } from "./imbalance.js";
import type { RepeatAvoidance } from "./recent-opponents.js";
import { twoTeams, type GameShape, type ShapeKind } from "./shape.js";
import type { PlayerWindow, Ticket } from "./types.js";

/** What every policy is given when it is created. */
export interface PolicyContext {
  /** The shape of the queue's games (see `PolicyDefinition.shapes` for which a policy is given). */
  readonly shape: GameShape;
  /** Players in a full game: what every proposal must seat. */
  readonly seats: number;
  /** Players per team (1 in a free-for-all); a two-team game seats `2 * teamSize`. */
  readonly teamSize: number;
  /** The queue's imbalance function, for policies that weigh team balance. */
  readonly imbalance: ImbalanceFn;
  /** The imbalance's configuration when it is a named one (absent for a custom function). */
  readonly imbalanceSpec?: ResolvedImbalance;
  /**
   * The queue's maximum wait (ms), if it has one (Schlup's tau_max): policies may relax their
   * criteria for tickets that reach it. If the queue fills with bots, the engine itself forms
   * a bot-filled game for a ticket the policy still has not matched by then.
   */
  readonly maxWaitMs?: number;
  /** The range ratings fall in (the room's accepted range), for policies that divide it. */
  readonly ratingRange?: { readonly min: number; readonly max: number };
  /** The queue's criteria beside the rating (option `criteria`), for policies that match on several. */
  readonly criteria?: readonly Criterion[];
  /**
   * A role queue's k = teamSize roles (see `MatchmakerOptions.roles`). Only policies whose
   * definition sets `supportsRoles` are given one.
   */
  readonly roles?: readonly string[];
  /**
   * Present when the queue avoids recent rematches (`MatchmakerOptions.avoidRecent`): policies
   * that search prefer games without a repeat and accept one only once its tickets waited
   * `avoid.fallbackMs`.
   */
  readonly avoid?: RepeatAvoidance;
}

/** Policy parameters as configured (room options or simulator `--set`); validated by the policy. */
export type PolicyParams = Readonly<Record<string, unknown>>;

/**
 * A matching policy. It owns its indexes; the engine calls it with a clock it passes in.
 * Every ticket returned from `poll` has been forgotten by the policy; the engine re-adds it
 * if the game cannot be formed after all.
 */
export interface Policy {
  readonly name: string;
  /** A ticket starts waiting (or returns, keeping its original `enqueuedAt`). */
  add(ticket: Ticket, now: number): void;
  /** A ticket stops waiting (its player left). Unknown ids are ignored. */
  remove(ticketId: string): void;
  /**
   * The games to form now, each a list of tickets that can fill a game of the queue's shape: proposals
   * only; the engine's `Matchmaker.tick` checks, assembles and records them.
   */
  poll(now: number): Ticket[][];
  /** The next time `poll` could form a game without any arrival, if the policy waits on time. */
  nextWakeup(now: number): number | undefined;
  /**
   * What the policy is doing, for the queue's statistics (e.g. which mode an adaptive policy
   * chose and the estimate behind it). Plain values only.
   */
  status?(): Readonly<Record<string, string | number | boolean>>;
  /**
   * Optional: the ratings a waiting ticket may be matched with at `now`, for policies that have
   * such a window (e.g. a range per rating band, or a window that widens with the wait).
   * Undefined for an unknown ticket or when the policy has no window. Shown to players in their
   * `status` message.
   */
  acceptanceWindow?(ticketId: string, now: number): AcceptanceWindow | undefined;
  /**
   * Optional: a window policy's window for `ticket` at `now`; the engine copies it onto each
   * matched player (`MatchedPlayer.window`) so a game can scale rating changes by it.
   */
  windowOf?(ticket: Ticket, now: number): PlayerWindow | undefined;
  /**
   * Optional: how patient the policy is, as one factor on its configured behaviour (1: as
   * configured; 2: waits about twice as long for a closer game). The queue's `targetWait`
   * controller turns it online (`src/core/target-wait.ts`); a policy without it cannot be given
   * a target wait.
   */
  setPatience?(patience: number, now: number): void;
}

/** The ratings a ticket may be matched with (inclusive). */
export interface AcceptanceWindow {
  readonly min: number;
  readonly max: number;
}

/** What a policy definition can declare it does, beyond forming games (see {@link PolicyDefinition}). */
export type PolicyCapability = "supportsRoles" | "avoidsRepeats";

/** A registered policy: its name, a one-line summary, its capabilities and its factory. */
export interface PolicyDefinition {
  readonly name: string;
  readonly summary: string;
  /** True for a policy that proposes only role-valid games, and so may serve a role queue. */
  readonly supportsRoles?: boolean;
  /** True for a policy that honours `PolicyContext.avoid` (recent-opponent avoidance). */
  readonly avoidsRepeats?: boolean;
  /**
   * The shapes of game it forms; absent: two teams only. A queue whose shape its policy does not
   * serve is refused at start-up, naming both.
   */
  readonly shapes?: readonly ShapeKind[];
  /** Throws `MatchmakerError("invalid_config")` for parameters it does not accept. */
  create(context: PolicyContext, params: PolicyParams): Policy;
}

/**
 * The policies an engine may select by name. An explicit object, so that nothing is registered
 * as a side effect of importing a module: the engine takes one (`MatchmakerOptions.policies`) or
 * uses the default registry of the built-in policies (`defaultPolicies` in `policies/`).
 */
export class PolicyRegistry {
  /** In registration order, which is the order lists of names keep. */
  private readonly definitions = new Map<string, PolicyDefinition>();

  constructor(definitions: Iterable<PolicyDefinition> = []) {
    for (const definition of definitions) this.register(definition);
  }

  /** Make a policy selectable by name. Throws `invalid_config` if the name is taken. */
  register(definition: PolicyDefinition): void {
    if (this.definitions.has(definition.name)) {
      throw new MatchmakerError("invalid_config", `a policy named "${definition.name}" is already registered`, "name");
    }
    this.definitions.set(definition.name, definition);
  }

  /** Names of all registered policies, sorted. */
  names(): string[] {
    return [...this.definitions.keys()].sort();
  }

  /** Names of the policies whose definition declares `capability`, in registration order. */
  namesWith(capability: PolicyCapability): string[] {
    return [...this.definitions.values()].filter((d) => d[capability] === true).map((d) => d.name);
  }

  /** The definition registered as `name`. Throws `unknown_policy`, listing the registered names. */
  get(name: string): PolicyDefinition {
    const definition = this.definitions.get(name);
    if (!definition) {
      throw new MatchmakerError(
        "unknown_policy",
        `unknown policy "${name}"; registered policies: ${this.names().join(", ")}`,
        "policy",
      );
    }
    return definition;
  }

  /** A new instance of the policy registered as `name`. */
  create(name: string, context: PolicyContext, params: PolicyParams = {}): Policy {
    return this.get(name).create(context, params);
  }

  /** Every registered definition, in registration order (to build a registry that extends this one). */
  all(): PolicyDefinition[] {
    return [...this.definitions.values()];
  }
}

/** True when `definition` forms games of this kind of shape (one that declares no shapes serves two teams only). */
export function servesShape(definition: PolicyDefinition, kind: ShapeKind): boolean {
  return (definition.shapes ?? ["two-teams"]).includes(kind);
}

/** A policy context's shape fields for two teams of `teamSize` (for contexts built by hand, as tests do). */
export function twoTeamFields(teamSize: number): Pick<PolicyContext, "shape" | "seats" | "teamSize"> {
  return { shape: twoTeams(teamSize), seats: 2 * teamSize, teamSize };
}
