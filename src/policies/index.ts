/** The built-in policies, registered by name when the package loads. */
import { registerPolicy, type PolicyDefinition } from "../core/policy.js";
import { greedy } from "./greedy.js";

export const builtInPolicies: readonly PolicyDefinition[] = [greedy];

for (const definition of builtInPolicies) registerPolicy(definition);

export { greedy, GreedyPolicy } from "./greedy.js";
