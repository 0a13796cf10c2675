import "./node20.js";
import { listen } from "@colyseus/tools";
import app from "./app.config.js";

const port = Number(process.env.PORT ?? 2567);
await listen(app, port);
console.log(`matchmaker example: ws://localhost:${port}  (queues: duel, squad, arena5; monitor: http://localhost:${port}/monitor; metrics: http://localhost:${port}/matchmaker/metrics)`);
