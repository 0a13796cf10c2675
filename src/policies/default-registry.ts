/**
 * The default policy registry: every built-in policy, by name. Engines use it when they are not
 * given a registry of their own. Importing this module registers nothing anywhere else.
 */
import { PolicyRegistry, type PolicyCapability } from "../core/policy.js";
import { bestGame } from "./best-game.js";
import { brackets } from "./brackets.js";
import { densityWindow } from "./density-window.js";
import { differenceWait } from "./difference-wait.js";
import { expandingWindow } from "./expanding-window.js";
import { greedy } from "./greedy.js";
import { multiQueue } from "./multi-queue.js";
import { patient } from "./patient.js";
import { periodic } from "./periodic.js";
import { roles } from "./roles.js";
import { fifo, lifo, packing, twoQueue } from "./service-orders.js";
import { weightedPairing } from "./weighted-pairing.js";

/**
 * The registry an engine uses when `MatchmakerOptions.policies` is absent: the built-in policies.
 * `defaultPolicies.register(definition)` makes your own selectable by name in every such engine
 * (the room and the simulator included); a `new PolicyRegistry(...)` keeps it to one engine.
 */
export const defaultPolicies = new PolicyRegistry([
  greedy,
  periodic,
  multiQueue,
  differenceWait,
  bestGame,
  patient,
  fifo,
  packing,
  lifo,
  twoQueue,
  roles,
  expandingWindow,
  brackets,
  weightedPairing,
  densityWindow,
]);

/**
 * Names of the policies that declare `capability` (e.g. `"avoidsRepeats"`: those that honour
 * `avoidRecent`), in registration order, read from the definitions so no list is written twice.
 */
export function policiesWith(capability: PolicyCapability, registry: PolicyRegistry = defaultPolicies): string[] {
  return registry.namesWith(capability);
}
