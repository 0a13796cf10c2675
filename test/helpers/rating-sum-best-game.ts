/**
 * best-game under the rating-sum imbalance built two ways, for tests that hold its fast paths
 * (the splitter, the 2v2 and block searches) to the general search through the assembly.
 */
import { ratingSumDifference, resolveImbalance, type ImbalanceFn } from "../../src/core/imbalance.js";
import type { PolicyParams } from "../../src/core/policy.js";
import type { BestGamePolicy } from "../../src/policies/best-game.js";
import { defaultPolicies } from "../../src/policies/default-registry.js";
import { twoTeamFields } from "../../src/core/policy.js";

const imbalanceSpec = resolveImbalance({ kind: "rating-sum" });
/** The same imbalance, not recognised as the rating-sum one: every set goes through the assembly. */
const opaque: ImbalanceFn = (a, b) => ratingSumDifference(a, b);

function make(teamSize: number, imbalance: ImbalanceFn, params: PolicyParams): BestGamePolicy {
  return defaultPolicies.create(
    "best-game",
    { ...twoTeamFields(teamSize), imbalance, imbalanceSpec },
    params,
  ) as BestGamePolicy;
}

/** best-game as the engine builds it for the rating-sum imbalance: it takes its fast paths. */
export const fastBestGame = (teamSize: number, params: PolicyParams): BestGamePolicy =>
  make(teamSize, ratingSumDifference, params);

/** best-game with the same imbalance behind a function it cannot recognise: the general search. */
export const generalBestGame = (teamSize: number, params: PolicyParams): BestGamePolicy =>
  make(teamSize, opaque, params);
