/**
 * Seeded randomness for the simulator: one xoroshiro128+ stream (pure-rand) and the few
 * distributions the arrival model needs. Same seed, same run, on every machine.
 */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

export class Random {
  private readonly rng;
  private spareNormal: number | undefined;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }

  /** Uniform on [0, 1). */
  uniform(): number {
    return uniformFloat64(this.rng);
  }

  /** Exponential with the given rate (mean 1 / rate), by inversion. */
  exponential(rate: number): number {
    return -Math.log1p(-this.uniform()) / rate;
  }

  /** Standard normal (Marsaglia's polar method; the second value is kept for the next call). */
  normal(): number {
    if (this.spareNormal !== undefined) {
      const z = this.spareNormal;
      this.spareNormal = undefined;
      return z;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.uniform() - 1;
      v = 2 * this.uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * f;
    return u * f;
  }

  /** One of `items`, drawn with probability proportional to its weight. */
  weighted<T>(items: ReadonlyArray<{ readonly value: T; readonly weight: number }>): T {
    let total = 0;
    for (const item of items) total += item.weight;
    let x = this.uniform() * total;
    for (const item of items) {
      x -= item.weight;
      if (x < 0) return item.value;
    }
    return items[items.length - 1].value;
  }
}
