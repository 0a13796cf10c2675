/** `npm run sim -- --schlup-grid`: its options, the a x tau_max table, and how it is written into a doc. */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/sim/options.js";
import { GRID_END, GRID_START, parseGridArgs, spliceGrid } from "../../src/sim/schlup-table3-grid-cli.js";
import { bestSchlup, schlupGrid, schlupGridMarkdown } from "../../src/sim/schlup-table3-grid.js";

describe("--schlup-grid options", () => {
  it("defaults to density-window, 2,000 arrivals and 8 seeds, and takes each", () => {
    expect(parseGridArgs(["--schlup-grid"])).toEqual({
      options: { policy: "density-window", tickets: 2000, seeds: 8 },
      json: false,
    });
    expect(
      parseGridArgs(["--schlup-grid", "--policy", "greedy", "--tickets", "500", "--seeds", "3", "--out", "x.md"]),
    ).toEqual({ options: { policy: "greedy", tickets: 500, seeds: 3 }, out: "x.md", json: false });
  });

  it("refuses an unknown policy, one seed and unknown options", () => {
    expect(() => parseGridArgs(["--schlup-grid", "--policy", "nope"])).toThrow(/--policy: unknown policy nope/);
    expect(() => parseGridArgs(["--schlup-grid", "--seeds", "1"])).toThrow(UsageError);
    expect(() => parseGridArgs(["--schlup-grid", "--rate", "3"])).toThrow(/Unknown option '--rate'/);
  });
});

describe("--schlup-grid --set", () => {
  it("gives the policy under test its parameters (dotted keys nest), checked before any run", () => {
    expect(parseGridArgs(["--schlup-grid", "--set", "c=1.1", "--set", "combine=min"]).options).toEqual({
      policy: "density-window",
      params: { c: 1.1, combine: "min" },
      tickets: 2000,
      seeds: 8,
    });
    expect(() => parseGridArgs(["--schlup-grid", "--set", "c=-1"])).toThrow(/--set: .*c: must be positive/);
    expect(() => parseGridArgs(["--schlup-grid", "--set", "nope=1"])).toThrow(UsageError);
    expect(() => parseGridArgs(["--schlup-grid", "--set", "c"])).toThrow(/is not KEY=VALUE/);
  });

  it("runs the policy with them and says so above the table", () => {
    const narrow = {
      tickets: 200,
      seeds: 2,
      rates: [4],
      tauMaxes: [5],
      grids: {
        periodic: { key: "x", values: [2] },
        "multi-queue": { key: "r", values: [3] },
        "difference-wait": { key: "fWait", values: [2] },
      },
    };
    const defaults = schlupGrid(narrow);
    const wider = schlupGrid({ ...narrow, params: { c: 3 } });
    expect(schlupGridMarkdown(wider)).toContain("`density-window` with c = 3, cost / OPT");
    expect(schlupGridMarkdown(defaults)).toContain("`density-window` at its defaults, cost / OPT");
    // Three times wider windows: a different policy on the same arrivals, Schlup's four unchanged.
    const mine = (r: typeof defaults) => r.cells[0].policies["density-window"].ratio.mean;
    expect(mine(wider)).not.toBe(mine(defaults));
    expect(wider.cells[0].policies["multi-queue"].ratio.mean).toBe(
      defaults.cells[0].policies["multi-queue"].ratio.mean,
    );
  });
});

describe("the grid", () => {
  const result = schlupGrid({
    tickets: 200,
    seeds: 2,
    rates: [1, 4],
    tauMaxes: [2, 5],
    grids: {
      periodic: { key: "x", values: [1, 2] },
      "multi-queue": { key: "r", values: [2, 3] },
      "difference-wait": { key: "fWait", values: [0, 2] },
    },
  });

  it("has every a x tau_max cell with Schlup's four and the policy, none below the optimum", () => {
    expect(result.cells.map((c) => `${c.rate}/${c.tauMax}`)).toEqual(["1/2", "4/2", "1/5", "4/5"]);
    for (const c of result.cells) {
      expect(Object.keys(c.policies).sort()).toEqual(
        ["density-window", "difference-wait", "greedy", "multi-queue", "periodic"].sort(),
      );
      for (const e of Object.values(c.policies)) expect(e.ratio.mean).toBeGreaterThanOrEqual(1);
      const best = bestSchlup(c)!;
      for (const p of ["greedy", "periodic", "multi-queue", "difference-wait"])
        expect(best.entry.ratio.mean).toBeLessThanOrEqual(c.policies[p].ratio.mean);
    }
  });

  it("prints the policy's ratio in every cell, and counts the cells within the 1.30 goal", () => {
    const text = schlupGridMarkdown(result);
    const mine = result.cells.map((c) => c.policies["density-window"].ratio.mean);
    for (const r of mine) expect(text).toContain(r.toFixed(3));
    expect(text).toContain(`in ${mine.filter((r) => r <= 1.3).length} of 4 cells`);
    expect(text).toContain("| a \\ tau_max | 2 | 5 |");
  });
});

describe("writing the table into a doc", () => {
  it("replaces only the part between the markers, or writes the marked table alone", () => {
    const doc = `# Title\n\nprose\n\n${GRID_START}\nold table\n${GRID_END}\n\nmore prose\n`;
    expect(spliceGrid(doc, "new table")).toBe(
      `# Title\n\nprose\n\n${GRID_START}\nnew table\n${GRID_END}\n\nmore prose\n`,
    );
    expect(spliceGrid(undefined, "t")).toBe(`${GRID_START}\nt\n${GRID_END}\n`);
    expect(spliceGrid("no markers", "t")).toBe(`${GRID_START}\nt\n${GRID_END}\n`);
  });
});
