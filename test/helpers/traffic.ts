import type { TrafficModel } from "../../src/sim/traffic.js";

/** Schlup's setting: solo players, one criterion uniform on [0, 1], no side preference. */
export function uniformSolos(rate: number, arrivals: "poisson" | "regular" = "poisson"): TrafficModel {
  return {
    arrivals,
    rate,
    parties: [{ value: 1, weight: 1 }],
    skill: { kind: "uniform" },
    sides: [{ value: undefined, weight: 1 }],
  };
}
