/**
 * `colyseus-matchmaker/engine`: the pure, clock-injected engine and the built-in policies,
 * without Colyseus. Use it to drive the engine from another server or a test, or to write a
 * policy: implement `Policy`, describe it with a `PolicyDefinition` and register it in a
 * `PolicyRegistry` (or `defaultPolicies`). The papers' closed forms are in `colyseus-matchmaker/sim`.
 */
export type {
  Side,
  Player,
  Ticket,
  MatchedPlayer,
  PlayerWindow,
  MatchTeam,
  MatchQuality,
  Match,
} from "./core/types.js";
export { MatchmakerError, type MatchmakerErrorCode } from "./core/errors.js";
export { Matchmaker, type MatchmakerOptions } from "./options/matchmaker.js";
export type { MatchmakerStats } from "./core/stats.js";
// Engine options a queue shares: blocked accounts, zones, criteria.
export { BlockList, type BlockRule } from "./core/blocks.js";
export type { ZoneSpec, ZoneOption } from "./core/zones.js";
export type { Criterion, CriterionOption } from "./core/criteria.js";

// The policy contract, and what a policy is given to decide with.
export {
  PolicyRegistry,
  type PolicyCapability,
  type Policy,
  type PolicyContext,
  type PolicyParams,
  type PolicyDefinition,
  type AcceptanceWindow,
} from "./core/policy.js";
export type { RepeatAvoidance } from "./core/recent-opponents.js";
export { ratingSumDifference, type ImbalanceFn, type ImbalanceSpec, type ResolvedImbalance } from "./core/imbalance.js";
export { assembleTeams, canAssemble, type TeamSplit } from "./core/assembly.js";
// The shape of a queue's games, and assembly for every shape.
export type { GameShape, TeamsShape, FreeForAllShape, ShapeKind } from "./core/shape.js";
export { assembleGame, canAssembleGame, type GameSplit } from "./core/game-assembly.js";

// The built-in policies: the default registry the engine uses, and each policy's definition.
export { defaultPolicies, policiesWith } from "./policies/default-registry.js";
export { greedy } from "./policies/greedy.js";
export { periodic } from "./policies/periodic.js";
export { multiQueue } from "./policies/multi-queue.js";
export { differenceWait } from "./policies/difference-wait.js";
export { bestGame } from "./policies/best-game.js";
export { patient } from "./policies/patient.js";
export { fifo, lifo, packing, twoQueue } from "./policies/service-orders.js";
export { roles } from "./policies/roles.js";
export { expandingWindow } from "./policies/expanding-window.js";
export { brackets } from "./policies/brackets.js";
export { weightedPairing } from "./policies/weighted-pairing.js";
export { densityWindow } from "./policies/density-window.js";
