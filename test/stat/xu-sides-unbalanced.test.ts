/**
 * Xu, Yu and Wu, section IV, with unbalanced sides (lambda_A = 0.4 > lambda_B = 0.2, lambda_C =
 * 0.4): side A's surplus waits for choice-free players, and the per-class waits are noisy
 * (a standard error of ~3.6% of E[T_B] from 8 x 20,000 tickets). 36 seeds of 32,000 tickets
 * bring 3 standard errors under 5% of every expected wait.
 */
import { describe } from "vitest";
import { describeSideChoiceWaits } from "../helpers/side-choice.js";

describe("side choice, unbalanced: per-class waits match the CTMC of Fig. 8", () => {
  describeSideChoiceWaits({ rates: [0.4, 0.2, 0.4], seeds: 36, tickets: 32_000, errors: 3 });
});
