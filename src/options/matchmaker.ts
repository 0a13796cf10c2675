/**
 * The engine as its users build it: `new Matchmaker({ policy: "greedy", teamSize: 2 })`. The options
 * are checked here (their fields, defaults and rules, `queue-options.ts` and `rules.ts`) and a policy
 * given by name is looked up in the default registry unless the options bring their own; the core
 * engine (`src/core/matchmaker.ts`) then receives both, and knows nothing of either.
 */
import type { MatchmakerError } from "../core/errors.js";
import type { ImbalanceFn, ImbalanceSpec } from "../core/imbalance.js";
import { Matchmaker as Engine, type EngineSettings } from "../core/matchmaker.js";
import type { Policy, PolicyParams, PolicyRegistry } from "../core/policy.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { parseEngineOptions, type SharedQueueOptions } from "./queue-options.js";
import { capabilitiesOf, defaultPolicy } from "./rules.js";

/**
 * Engine configuration: the options it shares with the queue room (see
 * {@link SharedQueueOptions}; their checks, defaults and rules live in `src/options/`) and its own.
 */
export interface MatchmakerOptions extends SharedQueueOptions {
  /**
   * A registered policy name or a policy instance.
   * @defaultValue `"greedy"`; `"roles"` in a role queue
   */
  readonly policy?: string | Policy;
  /**
   * Parameters for a policy given by name.
   * @defaultValue `{}`
   */
  readonly params?: PolicyParams;
  /** Where a policy given by name is looked up (default: `defaultPolicies`, the built-in policies). */
  readonly policies?: PolicyRegistry;
  /**
   * How to score a team split: a named {@link ImbalanceSpec} or your own function.
   * @defaultValue `{ kind: "rating-sum" }` (the difference of rating sums)
   */
  readonly imbalance?: ImbalanceFn | ImbalanceSpec;
  /** Prefix of generated match ids (default `"m"`); the room uses its roomId. */
  readonly matchIdPrefix?: string;
  /** The range ratings fall in, for policies that divide it (e.g. `multi-queue`). */
  readonly ratingRange?: { readonly min: number; readonly max: number };
  /** Called when a policy proposes a game that cannot be assembled; its tickets keep waiting. */
  readonly onPolicyError?: (error: MatchmakerError) => void;
}

/**
 * The engine's settings for `options`, checked against `policies` (a policy that does not honour
 * `avoidRecent` or cannot form role games is refused by name): throws
 * `MatchmakerError("invalid_config")` naming the field.
 */
export function engineSettings(options: MatchmakerOptions, policies: PolicyRegistry): EngineSettings {
  const parsed = parseEngineOptions(options, capabilitiesOf(policies));
  const { policy, params, imbalance, zones, onPolicyError } = options;
  return {
    ...parsed,
    policy: policy ?? defaultPolicy(parsed.roles),
    ...(params !== undefined ? { params } : {}),
    ...(imbalance !== undefined ? { imbalance } : {}),
    ...(zones !== undefined ? { zones } : {}),
    ...(onPolicyError !== undefined ? { onPolicyError } : {}),
  };
}

/**
 * Holds the waiting tickets of one queue and forms matches with its policy (see the core engine,
 * `src/core/matchmaker.ts`), built from plain options: they are checked, and a policy given by
 * name comes from `options.policies`, else the built-in policies (`defaultPolicies`).
 */
export class Matchmaker extends Engine {
  constructor(options: MatchmakerOptions) {
    const policies = options.policies ?? defaultPolicies;
    super(engineSettings(options, policies), policies);
  }
}
