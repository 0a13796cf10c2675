import { GrowingPool, JoinQueryLeave } from "./pool.js";
const k = Number(process.argv[2]);
const n = Number(process.argv[3]);
const pool = new GrowingPool(k, 1);
let t0 = performance.now();
pool.add(pool.nextTickets(n));
console.error(
  "build s",
  ((performance.now() - t0) / 1000).toFixed(1),
  "heapUsed MB",
  (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0),
);
const op = new JoinQueryLeave(pool.policy, 2);
for (let r = 0; r < 5; r++) {
  const N = k === 1 ? 5000 : 100;
  t0 = performance.now();
  for (let i = 0; i < N; i++) op.run();
  console.error("op us", (((performance.now() - t0) / N) * 1000).toFixed(1), "heap entries", pool.policy.heapSize);
}
process.exit(0);
