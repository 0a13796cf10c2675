/**
 * The traffic a simulation replays: when tickets arrive, how large the parties are, how the
 * ratings are spread and which sides players insist on. Seeded, so a run is reproducible.
 */
import type { Criterion } from "../core/criteria.js";
import { MatchmakerError } from "../core/errors.js";
import type { Player, Side, Ticket } from "../core/types.js";
import { Random } from "./random.js";

export type SkillModel =
  | { readonly kind: "uniform" }
  | { readonly kind: "normal"; readonly mean: number; readonly sd: number }
  /** Wu's two skill types: H (rating 1) with probability q, else L (rating 0). */
  | { readonly kind: "two-type"; readonly q: number };

export interface Weighted<T> {
  readonly value: T;
  readonly weight: number;
}

export interface TrafficModel {
  /** Poisson process, or one ticket exactly every 1 / rate seconds. */
  readonly arrivals: "poisson" | "regular";
  /** Tickets per second (with `rising`: the rate the ramp reaches, and keeps after it). */
  readonly rate: number;
  /**
   * A rate that rises linearly from `from` at time 0 to `rate` at `over` seconds (Schlup's
   * Table 2: "0...2" over the run), then stays at `rate`: a non-homogeneous Poisson process
   * (with `arrivals: "regular"`, the k-th ticket comes when k are expected).
   */
  readonly rising?: { readonly from: number; readonly over: number };
  /**
   * A rate that follows a profile: piecewise linear through `points` ([seconds, tickets per
   * second], times increasing), constant before the first and after the last point, or repeating
   * every `period` seconds (a daily cycle). Poisson arrivals only (thinning at the profile's
   * highest rate); `rate` is then unused.
   */
  readonly profile?: RateProfile;
  readonly parties: ReadonlyArray<Weighted<number>>;
  readonly skill: SkillModel;
  /** `undefined` is a choice-free ticket. */
  readonly sides: ReadonlyArray<Weighted<Side | undefined>>;
  /** The zones each ticket accepts (several: choice-free across zones); absent: a queue without zones. */
  readonly zones?: ReadonlyArray<Weighted<readonly string[]>>;
  /**
   * Players come back: each player is one of this many community members (uniformly drawn, each
   * with one fixed rating and `playerId`), so rematches can happen; absent: every arrival is new.
   */
  readonly community?: number;
  /**
   * Where players play from: each ticket draws one latency profile (ms to each zone) for all its
   * players, for a queue that chooses zones by latency (the queue's zones are the profiles' keys).
   */
  readonly latencies?: ReadonlyArray<Weighted<Readonly<Record<string, number>>>>;
  /**
   * Criteria beside the rating (Schlup's D > 1): each player draws a value on each from its own
   * skill model (clamped to the model's range, which is the criterion's range), and the queue
   * declares them with their weights (see {@link criteriaOf}). Drawn from a stream of their own,
   * so the arrivals and ratings are those of the same traffic without criteria.
   */
  readonly criteria?: ReadonlyArray<TrafficCriterion>;
}

/** A criterion of the simulated queue: its name, its weight in the cost and how players' values spread. */
export interface TrafficCriterion {
  readonly name: string;
  readonly weight: number;
  readonly values: SkillModel;
}

/** The queue's `criteria` option for a traffic model's criteria (ranges from their value models). */
export function criteriaOf(model: TrafficModel): Criterion[] | undefined {
  return model.criteria?.map((c) => ({ name: c.name, ...ratingScale(c.values), weight: c.weight }));
}

/** A piecewise-linear arrival rate over time (see {@link TrafficModel.profile}). */
export interface RateProfile {
  readonly points: ReadonlyArray<readonly [seconds: number, rate: number]>;
  readonly period?: number;
}

/** The profile's rate (tickets per second) at `seconds`. */
export function profileRate(profile: RateProfile, seconds: number): number {
  const points = profile.points;
  const t = profile.period ? ((seconds % profile.period) + profile.period) % profile.period : seconds;
  if (t <= points[0][0]) return points[0][1];
  for (let i = 1; i < points.length; i++) {
    const [t1, r1] = points[i];
    if (t <= t1) {
      const [t0, r0] = points[i - 1];
      return t1 === t0 ? r1 : r0 + ((r1 - r0) * (t - t0)) / (t1 - t0);
    }
  }
  return points[points.length - 1][1];
}

/** The queue's zones implied by a zone mix: every zone any ticket accepts, in order of first mention. */
export function zoneNames(model: TrafficModel): string[] | undefined {
  if (!model.zones) return model.latencies && [...new Set(model.latencies.flatMap((l) => Object.keys(l.value)))];
  return [...new Set(model.zones.flatMap((z) => z.value))];
}

/** One arrival: when (seconds) and the ticket (its `enqueuedAt` in milliseconds). */
export interface Arrival {
  readonly index: number;
  readonly time: number;
  readonly ticket: Ticket;
}

/** An endless, seeded stream of arrivals following `model`. */
export function* arrivals(model: TrafficModel, seed: number): Generator<Arrival, never> {
  checkTrafficModel(model);
  const random = new Random(seed);
  // Members' ratings come from their own stream, so the arrival stream is unchanged by them.
  const members = model.community === undefined ? undefined : communityRatings(model, seed);
  const criteria = model.criteria && criteriaValues(model.criteria, seed);
  let time = 0;
  // With a rising rate, a unit-rate Poisson process in "operational time" (the expected number of
  // arrivals so far) is mapped back to real time by inverting the cumulative rate.
  const clock = model.rising && risingClock(model.rate, model.rising);
  let operational = 0;
  const peak = model.profile && Math.max(...model.profile.points.map((p) => p[1]));
  for (let index = 0; ; index++) {
    if (model.profile) {
      // Thinning: candidates at the peak rate, each kept with probability rate(t) / peak.
      do time += random.exponential(peak!);
      while (random.uniform() * peak! >= profileRate(model.profile, time));
    } else if (clock) {
      operational += model.arrivals === "poisson" ? random.exponential(1) : 1;
      time = clock(operational);
    } else time += model.arrivals === "poisson" ? random.exponential(model.rate) : 1 / model.rate;
    const size = random.weighted(model.parties);
    const players = [];
    for (let p = 0; p < size; p++) {
      if (!members) {
        players.push({ sessionId: `p${index}.${p}`, rating: drawRating(model.skill, random) });
        continue;
      }
      const member = Math.min(members.length - 1, Math.floor(random.uniform() * members.length));
      players.push({ sessionId: `p${index}.${p}`, rating: members[member], playerId: `c${member}` });
    }
    const side = random.weighted(model.sides);
    const zones = model.zones && random.weighted(model.zones);
    // Drawn only when the model has them, so every other traffic keeps its stream.
    const latencies = model.latencies && random.weighted(model.latencies);
    const withCriteria: Player[] = criteria ? players.map((p) => ({ ...p, criteria: criteria() })) : players;
    const ticket: Ticket = {
      id: `t${index}`,
      players: latencies ? withCriteria.map((p) => ({ ...p, latencies })) : withCriteria,
      enqueuedAt: time * 1000,
      ...(side ? { side } : {}),
      ...(zones ? { zones } : {}),
    };
    yield { index, time, ticket };
  }
}

/** Refuse a traffic model the arrivals cannot follow: `MatchmakerError("invalid_config")` naming its field. */
function checkTrafficModel(model: TrafficModel): void {
  const refuse = (field: string, problem: string): never => {
    throw new MatchmakerError("invalid_config", `traffic: ${field}: ${problem}`, `traffic.${field}`);
  };
  if (model.profile) {
    if (model.arrivals !== "poisson") refuse("profile", "needs Poisson arrivals");
    if (!(Math.max(...model.profile.points.map((p) => p[1])) > 0)) refuse("profile", "needs a positive peak rate");
  } else if (!(model.rate > 0) || !Number.isFinite(model.rate)) refuse("rate", "must be a positive number");
  if (model.rising && (!(model.rising.from >= 0) || !(model.rising.over > 0)))
    refuse("rising", `needs from >= 0 and over > 0, got ${model.rising.from} and ${model.rising.over}`);
}

/**
 * The inverse of the cumulative rate Λ(t) = from·t + (rate − from)·t² / (2·over) for t ≤ over,
 * Λ(over) + rate·(t − over) after: the time at which `expected` arrivals are expected.
 */
export function risingClock(rate: number, rising: { readonly from: number; readonly over: number }) {
  const { from, over } = rising;
  if (!(from >= 0) || !(over > 0) || !(rate > 0))
    throw new RangeError(`rising rate: needs from >= 0, over > 0 and rate > 0, got ${from}, ${over}, ${rate}`);
  const slope = (rate - from) / over;
  const atEnd = from * over + (slope * over * over) / 2;
  return (expected: number): number => {
    if (expected >= atEnd) return over + (expected - atEnd) / rate;
    if (slope === 0) return expected / from;
    // Root of (slope/2)·t² + from·t − expected = 0 in [0, over]; written to stay exact near slope 0.
    return (2 * expected) / (from + Math.sqrt(from * from + 2 * slope * expected));
  };
}

/** Each call: one player's value on every criterion, clamped to its range, from a stream of their own. */
function criteriaValues(criteria: ReadonlyArray<TrafficCriterion>, seed: number): () => Record<string, number> {
  const random = new Random(seed + 0x2545f491);
  return () =>
    Object.fromEntries(
      criteria.map((c) => {
        const { min, max } = ratingScale(c.values);
        return [c.name, Math.min(max, Math.max(min, drawRating(c.values, random)))];
      }),
    );
}

function communityRatings(model: TrafficModel, seed: number): number[] {
  const random = new Random(seed + 0x5bd1e995);
  return Array.from({ length: model.community! }, () => drawRating(model.skill, random));
}

function drawRating(skill: SkillModel, random: Random): number {
  switch (skill.kind) {
    case "uniform":
      return random.uniform();
    case "normal":
      return skill.mean + skill.sd * random.normal();
    case "two-type":
      return random.uniform() < skill.q ? 1 : 0;
  }
}

/** The range ratings are scaled by for Schlup's criterion on [0, 1]. */
export function ratingScale(skill: SkillModel): { readonly min: number; readonly max: number } {
  switch (skill.kind) {
    case "uniform":
    case "two-type":
      return { min: 0, max: 1 };
    case "normal":
      // Plus or minus three standard deviations; values beyond are clamped when scaled.
      return { min: skill.mean - 3 * skill.sd, max: skill.mean + 3 * skill.sd };
  }
}
