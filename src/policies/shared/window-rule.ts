/**
 * A window that widens with the time a ticket has waited (the forum thread's first
 * suggestion): `initial` + `growthPerSecond` per second of waiting, linearly or in steps of
 * `stepMs`, clamped at `max`. One rule serves every unit (rating points, a fraction of the ticket's own
 * rating, or percentiles of the rating distribution).
 */
import * as v from "valibot";

import type { PlayerWindow } from "../../core/types.js";

/** How a window's width is measured. */
export type WindowUnit = PlayerWindow["unit"];
export type { PlayerWindow };

export interface WindowRuleOptions {
  readonly unit: WindowUnit;
  readonly initial: number;
  /** Width added per second of waiting. */
  readonly growthPerSecond: number;
  /** Milliseconds between widenings; 0 widens continuously. */
  readonly stepMs: number;
  readonly max: number;
}

const nonNegative = v.pipe(
  v.number("must be a number"),
  v.finite("must be a finite number"),
  v.minValue(0, "must not be negative"),
);

/** The valibot entries shared by every policy that takes a widening window. */
export const windowRuleEntries = {
  unit: v.optional(v.picklist(["rating", "relative", "percentile"], 'must be "rating", "relative" or "percentile"')),
  initial: v.optional(nonNegative),
  growthPerSecond: v.optional(nonNegative),
  stepMs: v.optional(nonNegative),
  max: v.optional(
    v.union([v.pipe(v.number(), v.minValue(0)), v.literal("inf")], 'must be a number of at least 0, Infinity or "inf"'),
  ),
};

export class WindowRule implements WindowRuleOptions {
  readonly unit: WindowUnit;
  readonly initial: number;
  readonly growthPerSecond: number;
  readonly stepMs: number;
  readonly max: number;
  /** `stepMs` in seconds, as the arithmetic below uses it. */
  private readonly step: number;

  constructor(options: WindowRuleOptions) {
    ({
      unit: this.unit,
      initial: this.initial,
      growthPerSecond: this.growthPerSecond,
      stepMs: this.stepMs,
      max: this.max,
    } = options);
    this.step = this.stepMs / 1000;
  }

  /** The width after waiting `waitMs`. */
  width(waitMs: number): number {
    const seconds = Math.max(0, waitMs) / 1000;
    const grown =
      this.step > 0
        ? this.growthPerSecond * this.step * Math.floor(seconds / this.step)
        : this.growthPerSecond * seconds;
    return Math.min(this.max, this.initial + grown);
  }

  /** True once the window will never widen again. */
  capped(waitMs: number): boolean {
    return this.growthPerSecond === 0 || this.width(waitMs) >= this.max;
  }

  /**
   * The shortest wait (whole ms) after which the width is at least `distance`; Infinity if it
   * never is. Checked against {@link width} itself so the two never disagree by a rounding.
   */
  waitToReach(distance: number): number {
    if (distance <= this.width(0)) return 0;
    if (distance > this.max || this.growthPerSecond === 0) return Infinity;
    const seconds = (distance - this.initial) / this.growthPerSecond;
    let ms =
      this.step > 0 ? this.step * Math.ceil(seconds / this.step - 1e-12) * 1000 : Math.ceil(seconds * 1000 - 1e-6);
    const stride = this.step > 0 ? this.step * 1000 : 1;
    if (!Number.isFinite(ms)) return Infinity;
    // Rounding may leave the estimate a stride off either way (a few strides at most).
    for (let i = 0; i < 4 && this.width(ms) < distance; i++) ms += stride;
    for (let i = 0; i < 4 && ms >= stride && this.width(ms - stride) >= distance; i++) ms -= stride;
    return this.width(ms) >= distance ? Math.max(0, ms) : Infinity;
  }
}
