/**
 * The engine, the built-in policies and `Matchmaker` as users build it, for tests: once
 * `src/core/index.ts`, moved out of core because core imports nothing above it (the policies, the
 * options). Tests may import the modules directly instead.
 */
export * from "../../src/core/types.js";
export * from "../../src/core/errors.js";
export * from "../../src/core/imbalance.js";
export * from "../../src/core/assembly.js";
export * from "../../src/core/policy.js";
export * from "../../src/core/stats.js";
export * from "../../src/core/matchmaker.js";
export * from "../../src/core/closed-forms.js";
export * from "../../src/core/partition.js";
export * from "../../src/core/role-rules.js";
export * from "../../src/core/side-mix.js";
export {
  resolveZones,
  ticketZones,
  zoneAdmits,
  ZoneRouter,
  type ZoneOption,
  type ZoneProposal,
  type ZoneSpec,
} from "../../src/core/zones.js";
export * from "../../src/core/wait-estimate.js";
export * from "../../src/core/backfill-selection.js";
export { RatingRanks } from "../../src/core/rating-ranks.js";
export {
  RecentOpponents,
  repeatAllowedAt,
  identityOf,
  DEFAULT_AVOID_RECENT_FALLBACK_MS,
  DEFAULT_HISTORY_PLAYERS,
  type RepeatAvoidance,
} from "../../src/core/recent-opponents.js";
export { BlockList, accountOf, blockedPair, blockedBetween, type BlockRule } from "../../src/core/blocks.js";
export { ArrivalIndex, compareArrival, type ArrivalKey } from "../../src/core/arrival-order.js";
export { describeIssues } from "../../src/core/validation.js";
export * from "../../src/policies/index.js";
// Users build the engine from plain options (this export shadows the core class of the same name).
export { Matchmaker, type MatchmakerOptions } from "../../src/options/matchmaker.js";
