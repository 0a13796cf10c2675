/** `npm run sim -- --schlup-table3`: its options, and the table it prints beside the paper's. */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/sim/options.js";
import { parseTable3Args, table3Text } from "../../src/sim/schlup-table3-cli.js";
import { SCHLUP_TABLE2, schlupTable3, schlupTraffic } from "../../src/sim/schlup-table3.js";

describe("--schlup-table3 options", () => {
  it("defaults to 2,000 arrivals and 6 seeds, and takes both", () => {
    expect(parseTable3Args(["--schlup-table3"])).toEqual({ options: { tickets: 2000, seeds: 6 }, json: false });
    expect(parseTable3Args(["--schlup-table3", "--tickets", "500", "--seeds", "3", "--json"])).toEqual({
      options: { tickets: 500, seeds: 3 },
      json: true,
    });
  });

  it("refuses one seed (no standard error), a bad count and unknown options", () => {
    expect(() => parseTable3Args(["--schlup-table3", "--seeds", "1"])).toThrow(UsageError);
    expect(() => parseTable3Args(["--schlup-table3", "--tickets", "many"])).toThrow(
      /--tickets: must be a whole number/,
    );
    expect(() => parseTable3Args(["--schlup-table3", "--policy", "greedy"])).toThrow(/Unknown option '--policy'/);
  });
});

describe("Table 2 traffic", () => {
  it("is constant at 1, 3, 10 and rises from 0 to 2, 6, 20 over the time the run's arrivals are expected", () => {
    expect(SCHLUP_TABLE2.map((s) => `${s.rising ? "0.." : ""}${s.rate}`)).toEqual([
      "1",
      "3",
      "10",
      "0..2",
      "0..6",
      "0..20",
    ]);
    expect(schlupTraffic(SCHLUP_TABLE2[4], 3000)).toMatchObject({ rate: 6, rising: { from: 0, over: 1000 } });
    expect(schlupTraffic(SCHLUP_TABLE2[1], 3000)).not.toHaveProperty("rising");
  });
});

describe("the printed table", () => {
  it("lists every policy beside the paper's figure, and each setting's best value", () => {
    const result = schlupTable3({
      tickets: 200,
      seeds: 2,
      settings: [SCHLUP_TABLE2[1]],
      grids: {
        periodic: { key: "x", values: [1, 2] },
        "multi-queue": { key: "r", values: [2, 3] },
        "difference-wait": { key: "fWait", values: [0, 2] },
      },
    });
    // The smallest parameters are greedy itself (section 5.2): same arrivals, same games.
    const cell = (p: string) => result.cells.find((c) => c.policy === p)!;
    expect(cell("periodic").sweep[0].ratio).toBe(cell("greedy").bestRatio);
    expect(cell("difference-wait").sweep[0].ratio).toBe(cell("greedy").bestRatio);
    const text = table3Text(result);
    for (const line of ["greedy", "periodic", "multi-queue", "difference-wait"]) expect(text).toContain(line);
    expect(text).toContain("2.04");
    expect(text).toContain("constant 3");
    expect(text).toContain(`${cell("multi-queue").bestRatio.toFixed(3)} (${String(cell("multi-queue").bestValue)})`);
  });
});
