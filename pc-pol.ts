import { GreedyPolicy } from "./src/policies/greedy.js";
import { ratingSumDifference } from "./src/core/imbalance.js";
import type { Ticket } from "./src/core/types.js";
const n = Number(process.argv[2] ?? 20000);
const mode = process.argv[3] ?? "all";
const p = new GreedyPolicy({ teamSize: 1, imbalance: ratingSumDifference });
const waiting: Ticket[] = [];
let seq = 0, now = 0;
const mk = (): Ticket => { const id = `t${seq++}`; return { id, players: [{ sessionId: id, rating: 1500 }], enqueuedAt: ++now, side: "A" }; };
for (let i = 0; i < n; i++) { const t = mk(); p.add(t, now); waiting.push(t); }
let r = 12345;
const rnd = () => ((r = (r * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
const step = () => {
  const t = mk(); p.add(t, now); waiting.push(t);
  const i = Math.floor(rnd() * waiting.length); const g = waiting[i]; waiting[i] = waiting[waiting.length - 1]; waiting.pop();
  p.remove(g.id);
  if (mode === "all") p.poll(now);
};
for (let i = 0; i < 50000; i++) step();
const c0 = process.cpuUsage(); let steps = 0; const t0 = performance.now();
while (performance.now() - t0 < 1500) { for (let i = 0; i < 256; i++) step(); steps += 256; }
const c = process.cpuUsage(c0);
console.log(mode, n, Math.round(steps / ((c.user + c.system) / 1e6)), "steps/cpu-s");
