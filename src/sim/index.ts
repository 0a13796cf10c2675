/**
 * `colyseus-matchmaker/sim`: the simulator as a library: traffic, the event loop, measures and the
 * offline optimum. Runs use the engine's default registry of built-in policies unless given one.
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
  scaledDispersions,
  wuImbalance,
  type Measures,
  type MeasureOptions,
} from "./measures.js";
export { runRequest, type SimulationReport } from "./run.js";
export { parseSimulationArgs, UsageError, type SimulationRequest } from "./options.js";
export { Random } from "./random.js";
export { maxWeightMatching, type WeightedEdge } from "./matching.js";
export {
  schlupOptimum,
  schlupPairCost,
  SCHLUP_BOT_GAME_COST,
  type OfflineArrival,
  type SchlupOptimum,
} from "./optimum.js";
export { risingClock } from "./traffic.js";
export {
  schlupTable3,
  schlupTraffic,
  SCHLUP_GRIDS,
  SCHLUP_POLICIES,
  SCHLUP_TABLE2,
  SCHLUP_TABLE3_PAPER,
  type SchlupCell,
  type SchlupGrid,
  type SchlupPolicy,
  type SchlupSetting,
  type SchlupTable3,
  type SchlupTable3Options,
  type SeedMean,
} from "./schlup-table3.js";
export {
  compareMatches,
  gameKey,
  matchKey,
  replayExact,
  replayTrace,
  traceTicket,
  type GameKey,
  type ReplayOverride,
  type ReplayResult,
} from "./replay.js";
export {
  checkTrace,
  type TrafficTrace,
  type TraceEvent,
  type TraceArrival,
  type TracePlayer,
  type TraceEngineOptions,
} from "../trace/format.js";
