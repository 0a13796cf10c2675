import "./node20.js";
import { listen } from "@colyseus/tools";
import app from "./app.config.js";
import { scaleOutOptions } from "./scale-out.js";

const port = Number(process.env.PORT ?? 2567);
// Redis only here, not in app.config.ts: the in-process tests boot that definition and stay in memory.
const scaleOut = scaleOutOptions(port);
await listen({ ...app, options: { ...app.options, ...scaleOut } }, port);
const mode = scaleOut.publicAddress ? `; Redis, public address ${scaleOut.publicAddress}` : "";
console.log(
  `matchmaker example: http://localhost:${port} (player page: http://localhost:${port}/play/; queues: duel, squad, arena5, squad_ready, duel_zones, duel_regions, ranked, ranked_1v1, ranked_2v2 (sign in at /auth), ffa3, ffa4, ffa2to4, teams4x2; monitor: http://localhost:${port}/monitor; metrics: http://localhost:${port}/matchmaker/metrics${mode})`,
);
