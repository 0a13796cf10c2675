import { describe, expect, it } from "vitest";
import type { Ticket } from "../../src/core/types.js";
import { WaitEstimator } from "../../src/core/wait-estimate.js";
import { countBucket, FiguresRefresh, StatusNotifier } from "../../src/colyseus/status-notifier.js";

const ticket = (id: string, side?: "A" | "B"): Ticket => ({
  id,
  players: [{ sessionId: id, rating: 1500 }],
  enqueuedAt: 0,
  ...(side ? { side } : {}),
});

function notifier(timeDrivenWindows = false) {
  const sent: Array<{ to: string; type: string; payload: unknown }> = [];
  const estimator = new WaitEstimator({ bandWidth: 100 });
  const n = new StatusNotifier({
    estimator,
    acceptanceWindow: () => undefined,
    zonesOf: (t) => t.zones,
    send: (to, type, payload) => (sent.push({ to, type, payload }), true),
    windowStep: 100,
    minIntervalMs: 1000,
    timeDrivenWindows,
  });
  return { n, sent, estimator };
}

describe("StatusNotifier", () => {
  it("counts buckets: exact below 10, then 1-2-5 steps", () => {
    expect([0, 1, 9, 10, 19, 20, 49, 50, 99, 100, 4000, 20_000].map(countBucket)).toEqual([
      0, 1, 9, 13, 13, 14, 14, 15, 15, 16, 20, 23,
    ]);
  });

  it("an idle pool: after one settled pass, sweeps check nothing and send nothing, however many tickets", () => {
    const { n, sent } = notifier();
    for (let i = 0; i < 2000; i++) n.waiting(ticket(`t${i}`, "A"), 0);
    const afterJoins = sent.length;
    let checked = 0;
    for (let tick = 1; tick <= 10; tick++) checked += n.sweep(5000 + tick * 1000, 1000);
    // At most one pass over the pool (bucket changes during the joins), then nothing.
    expect(checked).toBeLessThanOrEqual(2000 + 1);
    const quiet = n.sweep(100_000, 1000) + n.sweep(101_000, 1000);
    expect(quiet).toBe(0);
    // Sends only for tickets whose count bucket moved after their own entry.
    expect(sent.length - afterJoins).toBeLessThanOrEqual(2 * 2000);
    const before = sent.length;
    for (let tick = 0; tick < 20; tick++) n.sweep(200_000 + tick * 1000, 1000);
    expect(sent.length).toBe(before);
  });

  it("a new estimate makes the next sweeps look at every ticket again; the breakdown follows entries and exits", () => {
    const { n, estimator } = notifier();
    for (let i = 0; i < 10; i++) n.waiting(ticket(`t${i}`, i % 2 ? "A" : "B"), 0);
    while (n.sweep(10_000, 1000) > 0);
    estimator.record(ticket("x"), 30_000);
    n.estimatesMoved();
    expect(n.sweep(20_000, 1000)).toBeGreaterThan(0);
    n.notWaiting("t0");
    expect(n.breakdown()).toMatchObject({ players: 9, tickets: 9, bySide: { A: 5, B: 4 } });
  });

  it("a held first status goes out at the flush, only to tickets still waiting; a matched one hears clients instead", () => {
    const { n, sent } = notifier();
    n.entering(ticket("a"));
    n.entering(ticket("b"));
    expect(n.holding).toBe(true);
    expect(sent).toEqual([]);
    expect(n.breakdown()).toMatchObject({ players: 2, tickets: 2 });
    // The run matched b: it is no longer waiting, and hears its group's size like QueueRoom's clients.
    n.notWaiting("b");
    n.matched(["b", "x"]);
    n.flushEntering(50);
    expect(n.holding).toBe(false);
    expect(sent.filter((m) => m.type === "status").map((m) => m.to)).toEqual(["a"]);
    expect(sent.filter((m) => m.to === "b")).toEqual([{ to: "b", type: "clients", payload: 2 }]);
    // A second flush sends nothing more.
    n.flushEntering(60);
    expect(sent.filter((m) => m.type === "status")).toHaveLength(1);
  });

  it("matched players hear their match's human count, unless it is the count they were last told", () => {
    const { n, sent } = notifier();
    for (const id of ["a", "b", "c", "d"]) n.waiting(ticket(id), 0);
    // Each was told the count as it entered: a 1, b 2, c 3, d 4.
    const lastTold = (id: string) => sent.filter((m) => m.to === id && m.type === "clients").at(-1)?.payload;
    expect(["a", "b", "c", "d"].map(lastTold)).toEqual([1, 2, 3, 4]);
    sent.length = 0;
    // A free-for-all of 3 takes b, c and d: b and d hear 3 (their game's size); c was told 3 already.
    for (const id of ["b", "c", "d"]) n.notWaiting(id);
    n.matched(["b", "c", "d"]);
    expect(sent).toEqual([
      { to: "b", type: "clients", payload: 3 },
      { to: "d", type: "clients", payload: 3 },
    ]);
    // A player never told anything (matched at once) hears its match's count too.
    sent.length = 0;
    n.notWaiting("a");
    n.matched(["a", "x"]);
    expect(sent).toEqual([
      { to: "a", type: "clients", payload: 2 },
      { to: "x", type: "clients", payload: 2 },
    ]);
  });

  it("time-driven windows keep the sweep going, a slice per tick", () => {
    const { n } = notifier(true);
    for (let i = 0; i < 100; i++) n.waiting(ticket(`t${i}`), 0);
    for (let tick = 1; tick <= 5; tick++) expect(n.sweep(tick * 100_000, 100)).toBe(10); // 100 × 100 / 1000
  });
});

describe("FiguresRefresh", () => {
  it("stretches its interval with the audience so frames per second stay bounded", () => {
    let audience = 10;
    const r = new FiguresRefresh(
      1000,
      1000,
      () => audience,
      () => undefined,
      {
        now: () => 0,
        setTimeout: () => ({ clear() {} }),
      },
    );
    expect(r.interval()).toBe(1000);
    audience = 20_000;
    expect(r.interval()).toBe(20_000);
  });
});
