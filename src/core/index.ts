/** The engine without Colyseus: import this from a simulator, a test or another server. */
export * from "./types.js";
export * from "./errors.js";
export * from "./imbalance.js";
export * from "./assembly.js";
export * from "./policy.js";
export * from "./stats.js";
export * from "./matchmaker.js";
export * from "./closed-forms.js";
export * from "./partition.js";
export * from "./role-rules.js";
export * from "./side-mix.js";
export {
  resolveZones,
  ticketZones,
  zoneAdmits,
  ZoneRouter,
  type ZoneOption,
  type ZoneProposal,
  type ZoneSpec,
} from "./zones.js";
export * from "./wait-estimate.js";
export * from "./backfill-selection.js";
export { RatingRanks } from "./rating-ranks.js";
export {
  RecentOpponents,
  repeatAllowedAt,
  identityOf,
  DEFAULT_AVOID_RECENT_FALLBACK_MS,
  DEFAULT_HISTORY_PLAYERS,
  type RepeatAvoidance,
} from "./recent-opponents.js";
export { BlockList, accountOf, blockedPair, blockedBetween, type BlockRule } from "./blocks.js";
export { ArrivalIndex, compareArrival, type ArrivalKey } from "./arrival-order.js";
export { describeIssues } from "./validation.js";
export * from "../policies/index.js";
