/**
 * The top self-time entries of V8 CPU profiles written by `npm run load -- --profile DIR`:
 *   npx tsx bench/load/profile-top.ts DIR/fill-fill_queue-4000-*.cpuprofile [--top 15]
 * Self time by function (and file), as a share of all samples; "(idle)" is the event loop waiting.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topIndex = args.indexOf("--top");
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 15;
const files = args.filter((a, i) => !a.startsWith("--") && (topIndex < 0 || i !== topIndex + 1));
const self = new Map<string, number>();
let total = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${path.basename(url.split("?")[0])}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
}
const busy = total - (self.get("(idle)") ?? 0);
console.log(`| function | self ms | share of busy |\n|---|---|---|`);
for (const [key, us] of [...self]
  .filter(([k]) => k !== "(idle)")
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`| \`${key}\` | ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)}% |`);
console.log(`\nbusy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled`);
