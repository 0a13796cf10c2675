import { describe, expect, it } from "vitest";
import { LastHour, type HourTotals } from "../../src/colyseus/last-hour.js";

const MIN = 60_000;
const totals = (matches: number): HourTotals => ({
  matches,
  playersSeated: 2 * matches,
  noShows: matches % 3,
  requeued: 0,
});

describe("LastHour", () => {
  it("counts everything since counting began while that is less than an hour ago", () => {
    const hour = new LastHour(0);
    expect(hour.observe(totals(0), 0)).toEqual(totals(0));
    expect(hour.observe(totals(5), 10 * MIN)).toEqual(totals(5));
    expect(hour.observe(totals(7), 59 * MIN)).toMatchObject({ matches: 7, playersSeated: 14 });
  });

  it("then subtracts the totals of an hour ago, one snapshot per minute, at most an hour's worth kept", () => {
    const hour = new LastHour(0);
    // One match a minute for three hours, looked at several times a minute.
    for (let m = 0; m < 180; m++) for (const s of [0, 20, 40]) hour.observe(totals(m), m * MIN + s * 1000);
    // At minute 179 the totals are 179; at the hour-old snapshot (minute 119) they were 119.
    expect(hour.observe(totals(179), 179 * MIN + 50_000)).toMatchObject({ matches: 60, playersSeated: 120 });
    expect((hour as unknown as { snapshots: unknown[] }).snapshots.length).toBeLessThanOrEqual(61);
  });

  it("after a quiet hour, reports nothing", () => {
    const hour = new LastHour(0);
    hour.observe(totals(10), 5 * MIN);
    expect(hour.observe(totals(10), 200 * MIN)).toEqual({ matches: 0, playersSeated: 0, noShows: 0, requeued: 0 });
  });
});
