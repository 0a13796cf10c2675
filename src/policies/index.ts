/** The built-in policies, registered by name when the package loads. */
import { registerPolicy, type PolicyDefinition } from "../core/policy.js";
import { differenceWait } from "./difference-wait.js";
import { greedy } from "./greedy.js";
import { multiQueue } from "./multi-queue.js";
import { periodic } from "./periodic.js";

export const builtInPolicies: readonly PolicyDefinition[] = [greedy, periodic, multiQueue, differenceWait];

for (const definition of builtInPolicies) registerPolicy(definition);

export { greedy, GreedyPolicy } from "./greedy.js";
export { periodic, PeriodicPolicy } from "./periodic.js";
export { multiQueue, MultiQueuePolicy } from "./multi-queue.js";
export { differenceWait, DifferenceWaitPolicy } from "./difference-wait.js";
