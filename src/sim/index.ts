/**
 * `colyseus-matchmaker/sim`: the simulator as a library: traffic, the event loop, measures, the
 * offline optimum, replays of a queue's recorded traffic, and the papers' closed forms and tables
 * to check a policy against. Runs use the engine's default registry of built-in policies unless
 * given one.
 */
export { simulate, type SimulationConfig, type SimulationTrace } from "./simulator.js";
export {
  arrivals,
  criteriaOf,
  ratingScale,
  type Arrival,
  type SkillModel,
  type TrafficCriterion,
  type TrafficModel,
  type Weighted,
} from "./traffic.js";
export {
  measure,
  schlupGameCost,
  schlupTotalCost,
  wuImbalance,
  type Measures,
  type MeasureOptions,
} from "./measures.js";
// What `npm run sim` runs, as a library: one request, one report per swept value.
export { runRequest, type SimulationReport } from "./run.js";
export type { SimulationRequest } from "./options.js";
export {
  schlupOptimum,
  schlupPairCost,
  SCHLUP_BOT_GAME_COST,
  type OfflineArrival,
  type SchlupOptimum,
} from "./optimum.js";
// The closed loop: hidden true skills, results from a stated win model, ratings learned from them.
export {
  closedLoop,
  runClosedLoop,
  type ClosedLoopConfig,
  type ClosedLoopGame,
  type ClosedLoopPlayer,
  type ClosedLoopPopulation,
  type ClosedLoopTrace,
  type PlayerState,
} from "./closed-loop.js";
export { closedLoopReport, type ClosedLoopReport, type NewcomerPlacement } from "./closed-loop-measures.js";
export { DEFAULT_STOMP_CHANCE, winChances } from "./win-model.js";
// Schlup's Table 3, and the settings, grids and published figures behind it.
export {
  schlupTable3,
  schlupTraffic,
  SCHLUP_GRIDS,
  SCHLUP_POLICIES,
  SCHLUP_TABLE2,
  SCHLUP_TABLE3_PAPER,
  type SchlupGrid,
  type SchlupPolicy,
  type SchlupSetting,
  type SchlupTable3,
  type SchlupTable3Options,
} from "./schlup-table3.js";
// A queue's recorded traffic (the room's `trafficTrace` option), replayed through the engine.
export { compareMatches, replayExact, replayTrace, type ReplayOverride, type ReplayResult } from "./replay.js";
export { checkTrace, type TrafficTrace, type TraceEvent } from "../trace/format.js";
// The papers' closed forms (Schlup; Wu; Xu et al.), to check a policy's simulated costs and waits against.
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
} from "../core/closed-forms.js";
