/** The built-in policies and the default registry that holds them (nothing is registered on import). */
export { defaultPolicies, policiesWith } from "./default-registry.js";
export { greedy, GreedyPolicy, type ServiceOrder } from "./greedy.js";
export { periodic, PeriodicPolicy } from "./periodic.js";
export { multiQueue, MultiQueuePolicy } from "./multi-queue.js";
export { differenceWait, DifferenceWaitPolicy } from "./difference-wait.js";
export {
  bestGame,
  BestGamePolicy,
  lemma2Window,
  defaultWindow,
  type BestGameOptions,
  type BestGameCandidate,
} from "./best-game.js";
export { patient, PatientPolicy } from "./patient.js";
export { fifo, lifo, packing, twoQueue, PackingPolicy, TwoQueuePolicy } from "./service-orders.js";
export {
  roles,
  RolesPolicy,
  bestRoleGame,
  EXACT_ROLE_POOL_LIMIT,
  type RolesPolicyOptions,
  type RoleGameCandidate,
} from "./roles.js";
export { RoleWindows, SeatMatching, type RoleWindow } from "./shared/role-windows.js";
export {
  expandingWindow,
  ExpandingWindowPolicy,
  expandingWindowOptions,
  DEFAULT_POPULATION,
  type ExpandingWindowOptions,
} from "./expanding-window.js";
export { brackets, BracketsPolicy, type BracketsOptions } from "./brackets.js";
export { SweepMatcher, DEFAULT_WINDOW_BUDGET } from "./shared/sweep-matcher.js";
export { WindowRule, type WindowRuleOptions, type WindowUnit } from "./shared/window-rule.js";
export {
  weightedPairing,
  WeightedPairingPolicy,
  weightedPairingOptions,
  seededRandom,
  KERNEL_CUTOFF_SD,
  type WeightedPairingOptions,
} from "./weighted-pairing.js";
