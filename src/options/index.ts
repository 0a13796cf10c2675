/** Queue options: every option's schema, default, unit and rule once, and each driver's view of them. */
export { DEFAULTS, LIMITS, msFromSeconds } from "./fields.js";
export {
  defaultPolicy,
  optionRuleProblem,
  policiesHonouringAvoidRecent,
  capabilitiesOf,
  type OptionProblem,
  type PolicyCapabilities,
} from "./rules.js";
export {
  engineOptionsOf,
  parseEngineOptions,
  parseRoomOptions,
  spawnBackoffTimingOf,
  waitEstimatorOptionsOf,
  type MatchmakerRoomOptions,
  type ResolvedEngineOptions,
  type ResolvedRoomOptions,
  type SharedQueueOptions,
} from "./queue-options.js";
