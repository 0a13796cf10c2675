/**
 * `density-window` (src/policies/density-window.ts): its parameters, games only within every
 * member's window, nobody past the maximum wait, the same games for the same arrivals, and the
 * measured rate (the first after 4 arrivals; with a maximum wait, bounded by a silence).
 */
import { describe, expect, it } from "vitest";
import { Matchmaker } from "../../src/options/matchmaker.js";
import type { PolicyParams } from "../../src/core/policy.js";
import type { Match, Ticket } from "../../src/core/types.js";
import { DensityWindowPolicy } from "../../src/policies/density-window.js";
import { Random } from "../../src/sim/random.js";
import { expectValidMatch } from "../helpers/match-checks.js";
import { solo } from "../helpers/tickets.js";

const RANGE = { min: 0, max: 3000 };

function engine(params: PolicyParams = {}, maxWaitMs?: number, teamSize = 1): Matchmaker {
  return new Matchmaker({
    teamSize,
    policy: "density-window",
    params,
    ratingRange: RANGE,
    ...(maxWaitMs !== undefined ? { maxWaitMs, fillWithBots: true } : {}),
  });
}

interface Formed {
  readonly at: number;
  readonly match: Match;
  /** Each member's window (rating points) at the time the game formed, before it left the pool. */
  readonly windows: readonly number[];
}

/**
 * Poisson arrivals of solos rated uniformly on the range, ticking at every arrival and every
 * wake-up the engine asks for; returns each game with its members' windows when it formed.
 */
function run(mm: Matchmaker, seed: number, arrivals: number, perSecond: number): { formed: Formed[]; waiting: number } {
  const random = new Random(seed);
  const policy = mm.policy as DensityWindowPolicy;
  const formed: Formed[] = [];
  const tickAt = (now: number) => {
    // Windows are read before the tick: the policy forgets its players once they play.
    const before = new Map([...mm.waiting()].map((t) => [t.id, t] as const));
    for (const match of mm.tick(now)) {
      const windows = match.tickets
        .filter((t) => before.has(t.id))
        .map((t) => policy.windowOf(before.get(t.id)!, now).width);
      formed.push({ at: now, match, windows });
    }
  };
  let now = 0;
  for (let i = 0; i < arrivals; i++) {
    const next = now + Math.ceil(random.exponential(perSecond) * 1000);
    // Every wake-up before the next arrival.
    for (let wake = mm.nextWakeup(now); wake !== undefined && wake < next; wake = mm.nextWakeup(now)) {
      expect(wake).toBeGreaterThan(now);
      now = wake;
      tickAt(now);
    }
    now = next;
    mm.enqueue(solo(`p${i}`, RANGE.min + random.uniform() * (RANGE.max - RANGE.min), { at: now }), now);
    tickAt(now);
  }
  return { formed, waiting: [...mm.waiting()].length };
}

const spread = (tickets: readonly Ticket[]) => {
  const ratings = tickets.flatMap((t) => t.players.map((p) => p.rating));
  return Math.max(...ratings) - Math.min(...ratings);
};

describe("density-window parameters", () => {
  const cases: Array<[PolicyParams, RegExp]> = [
    [{ c: 0 }, /c/],
    [{ c: -1 }, /c/],
    [{ c: "wide" }, /c/],
    [{ waitWorth: 0 }, /waitWorth/],
    [{ growth: -0.5 }, /growth/],
    [{ population: 10 }, /population/],
    [{ population: 100.5 }, /population/],
    [{ m: 1 }, /\bm\b/],
    [{ lookahead: 0 }, /lookahead/],
    [{ lookahead: 2000 }, /lookahead/],
    [{ combine: "max" }, /combine/],
    [{ width: 3 }, /width/],
  ];
  for (const [params, name] of cases) {
    it(`refuses ${JSON.stringify(params)}, naming the parameter`, () => {
      expect(() => engine(params, 5000)).toThrow(name);
    });
  }

  it("accepts every parameter at a valid value, and none", () => {
    expect(() => engine({}, 5000)).not.toThrow();
    expect(() => engine({}, undefined)).not.toThrow();
    const mm = engine({ c: 1, waitWorth: 200, growth: 0, population: 20, m: 2, lookahead: 1, combine: "mean" });
    expect((mm.policy as DensityWindowPolicy).options).toEqual({
      c: 1,
      waitWorth: 200,
      growth: 0,
      population: 20,
      m: 2,
      lookahead: 1,
      combine: "mean",
    });
  });

  it("defaults: c 1.2 with a maximum wait (1 without), mean windows, waitWorth a tenth of the rating range", () => {
    expect((engine({}, 5000).policy as DensityWindowPolicy).options).toMatchObject({
      c: 1.2,
      waitWorth: 300,
      combine: "mean",
    });
    expect((engine({}).policy as DensityWindowPolicy).options).toMatchObject({
      c: 1,
      growth: 0.25,
      population: 1000,
      combine: "mean",
    });
  });
});

describe("density-window forms games only within windows", () => {
  for (const [label, maxWaitMs] of [
    ["with a maximum wait", 5000],
    ["without one (windows growing with the wait)", undefined],
  ] as const) {
    it(`${label}: every policy-made game's spread is within the mean of its members' windows when it forms`, () => {
      const mm = engine({}, maxWaitMs);
      const { formed } = run(mm, 7, 600, 4);
      let policyGames = 0;
      for (const { match } of formed) expectValidMatch(match, 1);
      for (const { at, match, windows } of formed) {
        // At tau_max the engine, not the policy, forms the game: the overdue ticket with the oldest
        // others beside it, or with bots.
        const overdue = maxWaitMs !== undefined && match.tickets.some((t) => at - t.enqueuedAt >= maxWaitMs);
        if (overdue) continue;
        expect(match.tickets).toHaveLength(2);
        policyGames++;
        const s = spread(match.tickets);
        // The members' windows are pooled (combine "mean", the default): their mean covers the spread.
        expect(windows.reduce((sum, w) => sum + w, 0) / windows.length).toBeGreaterThanOrEqual(s - 1e-6);
      }
      // Most players play one another: the check above is not vacuous.
      expect(policyGames * 2).toBeGreaterThan(400);
    });
  }

  it("two far-apart players wait while their windows are narrower than their distance", () => {
    const mm = engine({}, undefined);
    mm.enqueue(solo("low", 100, { at: 0 }), 0);
    mm.enqueue(solo("high", 2900, { at: 0 }), 0);
    const policy = mm.policy as DensityWindowPolicy;
    const [low, high] = [...mm.waiting()];
    expect(policy.windowOf(low, 0).width).toBeLessThan(2800);
    expect(mm.tick(0)).toEqual([]);
    // The window widens with the wait (growth 0.25 per second) and the game forms once the mean of the two covers it.
    const wake = mm.nextWakeup(0);
    expect(wake).toBeDefined();
    const formed = mm.tick(wake!);
    expect(formed).toHaveLength(1);
    const mean = (policy.windowOf(low, wake!).width + policy.windowOf(high, wake!).width) / 2;
    expect(mean).toBeGreaterThanOrEqual(2800);
    // ... and not a millisecond before.
    expect((policy.windowOf(low, wake! - 1).width + policy.windowOf(high, wake! - 1).width) / 2).toBeLessThan(2800);
  });
});

describe("density-window under a maximum wait", () => {
  it("nobody waits past tau_max: a human game or a bot game takes them by then", () => {
    const maxWaitMs = 2000;
    const mm = engine({}, maxWaitMs);
    const { formed } = run(mm, 11, 800, 1);
    for (const { at, match } of formed)
      for (const t of match.tickets) expect(at - t.enqueuedAt).toBeLessThanOrEqual(maxWaitMs);
    // At one arrival per second and tau_max = 2 s, both kinds of game occur.
    expect(formed.some((f) => f.match.tickets.length === 1)).toBe(true);
    expect(formed.some((f) => f.match.tickets.length === 2)).toBe(true);
  });

  it("a pair whose windows reach each other plays before tau_max rather than with bots", () => {
    const mm = engine({}, 5000);
    mm.enqueue(solo("a", 1500, { at: 0 }), 0);
    mm.enqueue(solo("b", 1510, { at: 0 }), 0);
    expect(mm.tick(0).map((m) => m.tickets.length)).toEqual([2]);
  });
});

describe("density-window is deterministic", () => {
  it("the same arrivals give the same games at the same times", () => {
    const games = (seed: number) =>
      run(engine({}, 5000), seed, 400, 3).formed.map((f) => `${f.at}:${f.match.tickets.map((t) => t.id).join("+")}`);
    const first = games(3);
    expect(games(3)).toEqual(first);
    expect(games(4)).not.toEqual(first);
  });
});

describe("density-window follows the arrival rate", () => {
  it("after a burst of 10 arrivals per second, 100 arrivals at 1 per second bring the measured rate near 1", () => {
    const mm = engine({});
    const policy = mm.policy as DensityWindowPolicy;
    const random = new Random(5);
    let now = 0;
    for (let i = 0; i < 600; i++) {
      now += i < 500 ? 100 : 1000;
      mm.enqueue(solo(`p${i}`, random.uniform() * 3000, { at: now }), now);
      mm.tick(now);
      if (i === 499) expect(policy.status().arrivalRate).toBeCloseTo(10, 0);
    }
    // Measured over the last 64 arrivals and refolded when it moves by 10%: the burst is forgotten.
    expect(policy.status().arrivalRate).toBeGreaterThan(0.9);
    expect(policy.status().arrivalRate).toBeLessThan(1.15);
  });
});

describe("density-window when traffic stops", () => {
  /** 200 arrivals at 10 per second spread over the range; some are still waiting at the end. */
  const feed = (mm: Matchmaker) => {
    let now = 0;
    for (let i = 0; i < 200; i++) {
      now += 100;
      mm.enqueue(solo(`p${i}`, (i * 1237) % 3000, { at: now }), now);
      mm.tick(now);
    }
    return now;
  };

  it("with a maximum wait, a silence lowers the rate (at most 4 / silence) and widens the windows", () => {
    const mm = engine({}, 60_000);
    const policy = mm.policy as DensityWindowPolicy;
    const last = feed(mm);
    expect(policy.status().arrivalRate).toBeCloseTo(10, 0);
    const waiting = [...mm.waiting()];
    expect(waiting.length).toBeGreaterThan(0);
    const ticket = waiting[waiting.length - 1];
    // Woken while tickets wait, even with no game due, until the silence has spoken.
    let now = last;
    const widths: number[] = [policy.windowOf(ticket, now).width];
    while (now < last + 5000) {
      const wake = mm.nextWakeup(now);
      expect(wake).toBeDefined();
      expect(wake!).toBeGreaterThan(now);
      now = Math.min(wake!, last + 5000);
      mm.tick(now);
      if (![...mm.waiting()].some((t) => t.id === ticket.id)) break;
      widths.push(policy.windowOf(ticket, now).width);
    }
    // 5 s without an arrival: the rate is at most 4 / 5 per second (a step of 10% above it at most).
    expect(policy.status().arrivalRate).toBeLessThanOrEqual(0.8 * 1.1);
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeGreaterThanOrEqual(widths[i - 1]);
    // At 10 per second the window is about sqrt(10) times narrower than at 1 per second.
    expect(widths[widths.length - 1]).toBeGreaterThan(2 * widths[0]);
  });

  it("without a maximum wait the silence changes nothing: the measured rate stands", () => {
    const mm = engine({});
    const policy = mm.policy as DensityWindowPolicy;
    const last = feed(mm);
    mm.tick(last + 5000);
    expect(policy.status().arrivalRate).toBeCloseTo(10, 0);
  });

  it("the first rate is measured after 4 arrivals, not assumed to be one per second", () => {
    const mm = engine({});
    const policy = mm.policy as DensityWindowPolicy;
    for (let i = 0; i < 4; i++) {
      mm.enqueue(solo(`p${i}`, 1000 * i, { at: 100 * i }), 100 * i);
      mm.tick(100 * i);
      if (i < 3) expect(policy.status().arrivalRate).toBeUndefined();
    }
    expect(policy.status().arrivalRate).toBeCloseTo(10, 5);
  });
});
