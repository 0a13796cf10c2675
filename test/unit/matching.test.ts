import { fc, test } from "@fast-check/vitest";
import highsModule, { type Highs } from "highs";
import { beforeAll, describe, expect, it } from "vitest";
import { maxWeightMatching, type WeightedEdge } from "../../src/sim/matching.js";
import { Random } from "../../src/sim/random.js";

/**
 * `highs` ships an ES module at run time but CommonJS-style typings, so under NodeNext the
 * default import is typed as the module object: take the loader from whichever it is.
 */
type HighsLoader = typeof highsModule.default;
const loadHighs = (typeof highsModule === "function" ? highsModule : highsModule.default) as HighsLoader;

/** Heaviest weight per vertex pair (n × n, -1 where there is no edge). */
function weightTable(n: number, edges: readonly WeightedEdge[]): Float64Array {
  const table = new Float64Array(n * n).fill(-1);
  for (const [u, v, w] of edges) {
    if (w > table[u * n + v]) {
      table[u * n + v] = w;
      table[v * n + u] = w;
    }
  }
  return table;
}

/** Asserts that `mate` is a matching that uses only the given edges; returns its weight. */
function matchingWeight(n: number, edges: readonly WeightedEdge[], mate: Int32Array): number {
  expect(mate).toBeInstanceOf(Int32Array);
  expect(mate.length).toBe(n);
  const table = weightTable(n, edges);
  let total = 0;
  for (let v = 0; v < n; v++) {
    const u = mate[v];
    if (u === -1) continue;
    expect(Number.isInteger(u) && u >= 0 && u < n && u !== v).toBe(true);
    expect(mate[u]).toBe(v);
    expect(table[v * n + u]).toBeGreaterThanOrEqual(0); // an edge of the input
    if (u > v) total += table[v * n + u];
  }
  return total;
}

/** Independent brute force: the best total over every matching of the graph. */
function bruteForceBest(n: number, edges: readonly WeightedEdge[]): number {
  const table = weightTable(n, edges);
  const used = new Uint8Array(n);
  const best = (from: number): number => {
    let i = from;
    while (i < n && used[i] === 1) i++;
    if (i >= n) return 0;
    used[i] = 1;
    let result = best(i + 1); // i stays unmatched
    for (let j = i + 1; j < n; j++) {
      if (used[j] === 1 || table[i * n + j] < 0) continue;
      used[j] = 1;
      result = Math.max(result, table[i * n + j] + best(i + 1));
      used[j] = 0;
    }
    used[i] = 0;
    return result;
  };
  return best(0);
}

function expectClose(actual: number, expected: number, relative: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.max(1, Math.abs(expected)));
}

type WeightKind = "ties" | "integers" | "floats";

function weightArb(kind: WeightKind): fc.Arbitrary<number> {
  if (kind === "ties") return fc.integer({ min: 0, max: 3 });
  if (kind === "integers") return fc.integer({ min: 0, max: 1000 });
  return fc.double({ min: 0, max: 100, noNaN: true }).map((w) => Math.abs(w));
}

const kindArb = fc.constantFrom<WeightKind>("ties", "integers", "floats");

/** Up to 10 vertices, a short random edge list (repeats and either orientation allowed). */
const sparseGraphArb = fc.record({ n: fc.integer({ min: 1, max: 10 }), kind: kindArb }).chain(({ n, kind }) =>
  fc.tuple(
    fc.constant(n),
    fc
      .array(fc.tuple(fc.nat({ max: n - 1 }), fc.nat({ max: n - 1 }), weightArb(kind)), { maxLength: 3 * n })
      .map((list) => list.filter(([u, v]) => u !== v) as WeightedEdge[]),
  ),
);

/** Up to 10 vertices, each pair present with probability 1, 3/4 or 1/2. */
const denseGraphArb = fc
  .record({ n: fc.integer({ min: 2, max: 10 }), kind: kindArb, gapFreq: fc.constantFrom(0, 4, 2) })
  .chain(({ n, kind, gapFreq }) => {
    const pairs: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push([i, j]);
    const w = weightArb(kind);
    const slot = gapFreq === 0 ? w : fc.option(w, { freq: gapFreq, nil: null });
    return fc.tuple(
      fc.constant(n),
      fc.array(fc.tuple(slot, fc.boolean()), { minLength: pairs.length, maxLength: pairs.length }).map((slots) => {
        const edges: WeightedEdge[] = [];
        slots.forEach(([weight, flip], k) => {
          if (weight === null) return;
          const [i, j] = pairs[k];
          edges.push(flip ? [j, i, weight] : [i, j, weight]);
        });
        return edges;
      }),
    );
  });

describe("maxWeightMatching: small cases", () => {
  it("handles empty graphs", () => {
    expect(Array.from(maxWeightMatching(0, []))).toEqual([]);
    expect(Array.from(maxWeightMatching(3, []))).toEqual([-1, -1, -1]);
  });

  it("matches a single edge", () => {
    expect(Array.from(maxWeightMatching(3, [[2, 0, 1.5]]))).toEqual([2, -1, 0]);
  });

  it("maximises weight, not cardinality", () => {
    // Path 0-1-2-3 with weights 1, 3, 1: the middle edge alone (3) beats the two ends (2).
    expect(
      Array.from(
        maxWeightMatching(4, [
          [0, 1, 1],
          [1, 2, 3],
          [2, 3, 1],
        ]),
      ),
    ).toEqual([-1, 2, 1, -1]);
    // With 2 on the ends (4 > 3) both ends win.
    expect(
      Array.from(
        maxWeightMatching(4, [
          [0, 1, 2],
          [1, 2, 3],
          [2, 3, 2],
        ]),
      ),
    ).toEqual([1, 0, 3, 2]);
  });

  it("goes through an odd cycle (a blossom) to reach a heavy edge", () => {
    // 5-cycle 0..4 of weight 2, and a pendant edge 4-5 of weight 3: 4-5, 0-1, 2-3.
    const edges: WeightedEdge[] = [
      [0, 1, 2],
      [1, 2, 2],
      [2, 3, 2],
      [3, 4, 2],
      [4, 0, 2],
      [4, 5, 3],
    ];
    const mate = maxWeightMatching(6, edges);
    expect(matchingWeight(6, edges, mate)).toBe(7);
    expect(mate[4]).toBe(5);
  });

  it("expands T-blossoms again, including a nested one", () => {
    // Found by search: the solver forms a blossom inside a blossom here and expands T-blossoms
    // twice on the way. The optimum, 20, is reached two ways (0-4 1-5 2-6 or 0-5 2-6 3-4).
    const edges: WeightedEdge[] = [
      [0, 4, 5],
      [0, 5, 7],
      [1, 5, 6],
      [1, 6, 1],
      [2, 3, 3],
      [2, 5, 8],
      [2, 6, 9],
      [3, 4, 4],
      [4, 5, 7],
      [4, 6, 8],
      [5, 6, 3],
    ];
    const mate = maxWeightMatching(7, edges);
    expect(matchingWeight(7, edges, mate)).toBe(20);
    expect(bruteForceBest(7, edges)).toBe(20);
  });

  it("keeps the heaviest of parallel edges and ignores zero weights", () => {
    const mate = maxWeightMatching(2, [
      [0, 1, 1],
      [1, 0, 5],
    ]);
    expect(Array.from(mate)).toEqual([1, 0]);
    expect(Array.from(maxWeightMatching(2, [[0, 1, 0]]))).toEqual([-1, -1]);
  });

  it("rejects invalid input with a clear error", () => {
    expect(() => maxWeightMatching(-1, [])).toThrow(/vertexCount/);
    expect(() => maxWeightMatching(2.5, [])).toThrow(/vertexCount/);
    expect(() => maxWeightMatching(Number.NaN, [])).toThrow(/vertexCount/);
    expect(() => maxWeightMatching(2, [[0, 2, 1]])).toThrow(/edge 0 .*vertex ids/);
    expect(() =>
      maxWeightMatching(3, [
        [0, 1, 1],
        [-1, 1, 1],
      ]),
    ).toThrow(/edge 1 .*vertex ids/);
    expect(() => maxWeightMatching(3, [[0, 1.5, 1]])).toThrow(/vertex ids must be integers/);
    expect(() => maxWeightMatching(3, [[1, 1, 1]])).toThrow(/self-loop/);
    expect(() => maxWeightMatching(2, [[0, 1, Number.NaN]])).toThrow(/weight NaN/);
    expect(() => maxWeightMatching(2, [[0, 1, Infinity]])).toThrow(/weight Infinity/);
    expect(() => maxWeightMatching(2, [[0, 1, -1]])).toThrow(/weight -1/);
    expect(() => maxWeightMatching(2, [[0, 1] as unknown as WeightedEdge])).toThrow(TypeError);
  });
});

describe("maxWeightMatching against brute force (all matchings of <= 10 vertices)", () => {
  test.prop([sparseGraphArb], { numRuns: 2000 })("random sparse edge lists", ([n, edges]) => {
    const mate = maxWeightMatching(n, edges);
    expectClose(matchingWeight(n, edges, mate), bruteForceBest(n, edges), 1e-9);
  });

  test.prop([denseGraphArb], { numRuns: 2000 })("random dense graphs", ([n, edges]) => {
    const mate = maxWeightMatching(n, edges);
    expectClose(matchingWeight(n, edges, mate), bruteForceBest(n, edges), 1e-9);
  });
});

/** The same problem as a MIP in CPLEX LP format: binary x_e, sum over e at v <= 1, max sum w_e x_e. */
function matchingMip(n: number, edges: readonly WeightedEdge[]): string {
  const lines = ["Maximize", " obj:"];
  let line = "";
  edges.forEach(([, , w], k) => {
    line += ` + ${w} x${k}`;
    if (line.length > 200) {
      lines.push(line);
      line = "";
    }
  });
  if (line !== "") lines.push(line);
  lines.push("Subject To");
  const incident: number[][] = Array.from({ length: n }, () => []);
  edges.forEach(([u, v], k) => {
    incident[u].push(k);
    incident[v].push(k);
  });
  incident.forEach((ks, v) => {
    if (ks.length > 0) lines.push(` v${v}: ${ks.map((k) => `x${k}`).join(" + ")} <= 1`);
  });
  lines.push("Binary", edges.map((_, k) => ` x${k}`).join(""), "End");
  return lines.join("\n");
}

/** Random graph on 30..100 vertices: uniform pairs, or odd cycles tied together (many blossoms). */
function randomMipGraph(random: () => number, index: number): { n: number; edges: WeightedEdge[] } {
  const n = 30 + Math.floor(random() * 71);
  const weight = (): number =>
    index % 3 === 0
      ? Math.floor(random() * 4)
      : index % 3 === 1
        ? Math.floor(random() * 100)
        : Math.round(random() * 1e6) / 1e3;
  const edges: WeightedEdge[] = [];
  if (index % 4 === 3) {
    // Odd cycles of length 3, 5 or 7 over a shuffled vertex order, plus random chords.
    const order = Array.from({ length: n }, (_, i) => i).sort(() => random() - 0.5);
    let at = 0;
    while (at + 3 <= n) {
      const len = Math.min(n - at, 3 + 2 * Math.floor(random() * 3));
      const size = len % 2 === 1 ? len : len - 1;
      for (let i = 0; i < size; i++) edges.push([order[at + i], order[at + ((i + 1) % size)], weight()]);
      at += size;
    }
    const chords = Math.floor(n * (0.5 + random()));
    for (let c = 0; c < chords; c++) {
      const u = Math.floor(random() * n);
      const v = Math.floor(random() * n);
      if (u !== v) edges.push([u, v, weight()]);
    }
  } else {
    const p = (1.5 + random() * 6) / n; // average degree 1.5..7.5
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (random() < p) edges.push([i, j, weight()]);
  }
  return { n, edges };
}

describe("maxWeightMatching against HiGHS (the same problem as a MIP, 30-100 vertices)", () => {
  let highs: Highs;
  beforeAll(async () => {
    highs = await loadHighs();
  });

  it("finds the MIP optimum on 32 random graphs", () => {
    const rng = new Random(20_260_611); // seeded: the same cases on every run
    const random = () => rng.uniform();
    let blossomHeavy = 0;
    for (let index = 0; index < 32; index++) {
      const { n, edges } = randomMipGraph(random, index);
      if (index % 4 === 3) blossomHeavy++;
      const mate = maxWeightMatching(n, edges);
      const ours = matchingWeight(n, edges, mate);
      if (edges.length === 0) {
        expect(ours).toBe(0);
        continue;
      }
      const result = highs.solve(matchingMip(n, edges), { output_flag: false, mip_rel_gap: 0, mip_abs_gap: 0 });
      expect(result.Status).toBe("Optimal");
      expectClose(ours, result.ObjectiveValue, 1e-6);
    }
    expect(blossomHeavy).toBe(8);
  });
});
