/**
 * The rules that tie queue options together (one option needs, or rules out, another), written
 * once and run by every view: the engine at construction, the room at creation and at
 * `defineQueue`. Each rule names the option at fault.
 */
import { servesShape, type Policy, type PolicyRegistry } from "../core/policy.js";
import type { ZoneOption } from "../core/zones.js";
import { describeShape, kindOf, type GameShape, type ShapeKind } from "../core/shape.js";
import { defaultPolicies } from "../policies/default-registry.js";
import { DEFAULTS } from "./fields.js";

/** A broken rule: the option at fault and what is wrong with it. */
export interface OptionProblem {
  readonly field: string;
  readonly message: string;
}

/** Which registered policies can do what, as the rules need to know it. */
export interface PolicyCapabilities {
  /** Every registered policy. */
  names(): readonly string[];
  /** The policies that honour `avoidRecent` (they search for games without a repeat). */
  honouringAvoidRecent(): readonly string[];
  /** The policies that form role-valid games. */
  formingRoleGames(): readonly string[];
  /** The policies that form games of a shape of this kind. */
  formingShape(kind: ShapeKind): readonly string[];
}

/** What a policy registry's definitions say they can do, as the rules need it (names sorted). */
export function capabilitiesOf(registry: PolicyRegistry = defaultPolicies): PolicyCapabilities {
  return {
    names: () => registry.names(),
    honouringAvoidRecent: () => registry.namesWith("avoidsRepeats").sort(),
    formingRoleGames: () => registry.namesWith("supportsRoles").sort(),
    formingShape: (kind) =>
      registry
        .all()
        .filter((d) => servesShape(d, kind))
        .map((d) => d.name)
        .sort(),
  };
}

/** The built-in policies that honour `avoidRecent`, sorted. */
export function policiesHonouringAvoidRecent(): string[] {
  return defaultPolicies.namesWith("avoidsRepeats").sort();
}

/** The policy a queue runs when its options name none: `"roles"` in a role queue, else `"greedy"`. */
export function defaultPolicy(roles: readonly string[] | undefined): string {
  return roles ? DEFAULTS.rolePolicy : DEFAULTS.policy;
}

/** The options the rules look at (as parsed; `policy` may be an engine's policy instance). */
export interface RuleInput {
  readonly shape: GameShape;
  readonly policy?: string | Policy;
  readonly roles?: readonly string[];
  readonly zones?: readonly ZoneOption[];
  readonly maxWaitMs?: number;
  readonly fillWithBots?: boolean;
  readonly avoidRecent?: number;
  readonly spawnRetryMs?: number;
  readonly spawnRetryMaxMs?: number;
  readonly maxLatencyMs?: number;
  readonly maxLatencyGrowthPerSecond?: number;
  readonly maxLatencyCapMs?: number;
}

/** The first broken rule, or undefined. */
export function optionRuleProblem(
  options: RuleInput,
  capabilities: PolicyCapabilities = capabilitiesOf(),
): OptionProblem | undefined {
  if (options.fillWithBots && options.maxWaitMs === undefined)
    return { field: "fillWithBots", message: "needs maxWaitMs" };
  if (
    options.spawnRetryMs !== undefined &&
    options.spawnRetryMaxMs !== undefined &&
    options.spawnRetryMaxMs < options.spawnRetryMs
  )
    return { field: "spawnRetryMaxMs", message: `must be at least spawnRetryMs (${options.spawnRetryMs})` };
  const latency = latencyRuleProblem(options);
  if (latency) return latency;
  const policy = options.policy ?? defaultPolicy(options.roles);
  // An unknown policy is named by the registry when the engine creates it.
  if (typeof policy === "string" && capabilities.names().includes(policy)) {
    if (options.avoidRecent !== undefined) {
      const honouring = capabilities.honouringAvoidRecent();
      if (!honouring.includes(policy)) {
        return {
          field: "avoidRecent",
          message: `policy "${policy}" does not avoid rematches (${listed(honouring)} do)`,
        };
      }
    }
    if (options.roles && !capabilities.formingRoleGames().includes(policy)) {
      return { field: "roles", message: `policy "${policy}" does not form role-valid games; use policy "roles"` };
    }
    const forming = capabilities.formingShape(kindOf(options.shape));
    if (!forming.includes(policy)) {
      return {
        field: "policy",
        message: `policy "${policy}" does not form games of ${describeShape(options.shape)} (${listed(forming)} do)`,
      };
    }
  } else if (typeof policy !== "string" && options.zones && options.zones.length > 1) {
    return { field: "zones", message: "each zone needs its own policy; give the policy by name" };
  }
  return undefined;
}

/**
 * A ranked queue's rules: ratings are keyed by the trusted account, so `ratings` needs `players`,
 * and the rating and its uncertainty are the ledger's, so `players.clientOptions` names neither.
 */
export function ratingsRuleProblem(options: {
  readonly ratings?: unknown;
  readonly players?: { readonly clientOptions: readonly string[] };
}): OptionProblem | undefined {
  if (options.ratings === undefined) return undefined;
  if (!options.players)
    return {
      field: "ratings",
      message: "needs players: ratings are kept by account, so the server must say who each player is",
    };
  const named = options.players.clientOptions.find((name) => name === "rating" || name === "uncertainty");
  if (named)
    return {
      field: "players.clientOptions",
      message: `must not name ${named} in a queue with ratings: the queue's ratings set it`,
    };
  return undefined;
}

/** The latency options' rules: they need zones, and each other in order. */
function latencyRuleProblem(options: RuleInput): OptionProblem | undefined {
  const { maxLatencyMs, maxLatencyGrowthPerSecond, maxLatencyCapMs } = options;
  if (maxLatencyMs !== undefined && !options.zones)
    return { field: "maxLatencyMs", message: "needs zones (the regions players give latencies to)" };
  if (maxLatencyGrowthPerSecond !== undefined && maxLatencyMs === undefined)
    return { field: "maxLatencyGrowthPerSecond", message: "needs maxLatencyMs" };
  if (maxLatencyCapMs !== undefined && maxLatencyGrowthPerSecond === undefined)
    return { field: "maxLatencyCapMs", message: "needs maxLatencyGrowthPerSecond" };
  if (maxLatencyCapMs !== undefined && maxLatencyMs !== undefined && maxLatencyCapMs < maxLatencyMs)
    return { field: "maxLatencyCapMs", message: "must not be below maxLatencyMs" };
  return undefined;
}

/** `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
