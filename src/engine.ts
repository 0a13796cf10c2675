/**
 * `colyseus-matchmaker/engine`: the pure, clock-injected engine and the built-in policies,
 * without Colyseus. Use it to write a policy, drive the engine from another server or a test, or
 * compare a policy with the papers' closed forms.
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
export { BlockList, accountOf, type BlockRule } from "./core/blocks.js";
export type { MatchmakerStats, ClassFigures } from "./core/stats.js";
export {
  PolicyRegistry,
  type PolicyCapability,
  type Policy,
  type PolicyContext,
  type PolicyParams,
  type PolicyDefinition,
  type AcceptanceWindow,
  type TicketSlot,
} from "./core/policy.js";
export { assembleTeams, canAssemble, type TeamSplit } from "./core/assembly.js";
export {
  resolveImbalance,
  imbalanceFunction,
  ratingSumDifference,
  highLowDifference,
  almanMcKay,
  pSkill,
  pFairness,
  qUniformity,
  type ImbalanceFn,
  type ImbalanceSpec,
  type ResolvedImbalance,
  type NormExponent,
  type AlmanMcKayParams,
} from "./core/imbalance.js";
export { resolveZones, type ZoneSpec, type ZoneOption } from "./core/zones.js";
export { withCriteriaCost, type Criterion, type CriterionOption } from "./core/criteria.js";
export { WaitEstimator, type WaitEstimate, type WaitBasis, type WaitEstimatorOptions } from "./core/wait-estimate.js";
export {
  selectBackfill,
  selectPartialBackfill,
  MAX_BACKFILL_SEATS,
  type BackfillNeed,
  type BackfillZonesOf,
} from "./core/backfill-selection.js";
export type { RepeatAvoidance } from "./core/recent-opponents.js";
// The papers' closed forms, to check a policy against.
export {
  schlupGreedyCost,
  schlupPeriodicCost,
  schlupPeriodicOptimalN,
  schlupMultiQueueCost,
  schlupMultiQueueOptimalR,
  schlupMultiQueueCostD,
  schlupMultiQueueOptimalRD,
  wuGreedyCost,
  wuPatientCost,
  wuGreedyIsOptimal,
  xuSideChoiceWaits,
  xuZoneWaits,
  xuChoiceFreeImprovement,
} from "./core/closed-forms.js";

// The built-in policies: the default registry the engine uses, and each policy's definition.
export {
  defaultPolicies,
  policiesWith,
  greedy,
  GreedyPolicy,
  type ServiceOrder,
  periodic,
  PeriodicPolicy,
  multiQueue,
  MultiQueuePolicy,
  differenceWait,
  DifferenceWaitPolicy,
  bestGame,
  BestGamePolicy,
  lemma2Window,
  defaultWindow,
  type BestGameOptions,
  type BestGameCandidate,
  patient,
  PatientPolicy,
  fifo,
  lifo,
  packing,
  twoQueue,
  PackingPolicy,
  TwoQueuePolicy,
  roles,
  RolesPolicy,
  type RolesPolicyOptions,
  expandingWindow,
  ExpandingWindowPolicy,
  type ExpandingWindowOptions,
  brackets,
  BracketsPolicy,
  type BracketsOptions,
  weightedPairing,
  WeightedPairingPolicy,
  type WeightedPairingOptions,
  WindowRule,
  type WindowRuleOptions,
  type WindowUnit,
} from "./policies/index.js";
