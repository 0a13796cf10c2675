/**
 * One way a sorted-btree floor gets two speeds (lab/engine-speed.md, fourth pass): the same
 * floor (insert + delete on a tree of 100,000 numbers) timed on the shared module
 * before and after other trees with other comparators ran through it, and on a copy of the
 * module loaded for it alone. Run: `npx tsx bench/probes/floor-feedback.ts`.
 */
import { createRequire } from "node:module";
import { Random } from "../../src/sim/random.js";

type Tree<K> = { set(k: K, v: number): unknown; delete(k: K): unknown; readonly size: number };
type TreeClass = new <K>(entries: undefined, compare: (a: K, b: K) => number) => Tree<K>;

function loadBTree(fresh: boolean): TreeClass {
  const require = createRequire(import.meta.url);
  const path = require.resolve("sorted-btree");
  if (fresh) delete require.cache[path];
  const mod = require(path) as { default?: TreeClass };
  return mod.default ?? (mod as unknown as TreeClass);
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const random = new Random(20_170_508);
const uniform = () => random.uniform();

/** Floor steps per CPU second, three slices of 300 ms after a warm-up. */
function floorRates(BTree: TreeClass, n = 100_000): string {
  const tree = new BTree<number>(undefined, (a, b) => a - b);
  const keys: number[] = [];
  const insert = () => {
    const k = 3000 * uniform();
    tree.set(k, 0);
    keys.push(k);
  };
  for (let i = 0; i < n; i++) insert();
  const step = () => {
    insert();
    const i = Math.floor(uniform() * keys.length);
    tree.delete(keys[i]);
    keys[i] = keys[keys.length - 1];
    keys.pop();
  };
  for (let i = 0; i < 20_000; i++) step();
  if (tree.size !== n) throw new Error(`floor of ${tree.size} keys, expected ${n}`);
  const out: number[] = [];
  for (let r = 0; r < 3; r++) {
    const c0 = cpuMs();
    let s = 0;
    while (cpuMs() - c0 < 300) {
      for (let i = 0; i < 1000; i++) step();
      s += 1000;
    }
    out.push(Math.round((s * 1000) / (cpuMs() - c0)));
  }
  return out.map((x) => x.toLocaleString("en-US")).join(" / ");
}

/** Other trees through the same module: array keys (as the engine's arrival order) and strings. */
function otherTrees(BTree: TreeClass): void {
  const pairs = new BTree<readonly [number, number]>(undefined, (a, b) => a[0] - b[0] || a[1] - b[1]);
  const strings = new BTree<string>(undefined, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 0; i < 50_000; i++) {
    pairs.set([i % 97, i], 0);
    strings.set(`k${i}`, 0);
  }
  for (let i = 0; i < 50_000; i++) {
    pairs.delete([i % 97, i]);
    strings.delete(`k${i}`);
  }
}

const shared = loadBTree(false);
console.log(`shared module, only the floor so far:  ${floorRates(shared)}`);
otherTrees(shared);
console.log(`shared module, after other comparators: ${floorRates(shared)}`);
console.log(`a fresh copy of the module:             ${floorRates(loadBTree(true))}`);
