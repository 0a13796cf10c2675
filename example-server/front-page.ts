/** The example server's front page: links to the player page, the playground, the dashboard, the monitor and the metrics. */
import type { IncomingMessage, ServerResponse } from "node:http";

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>colyseus-matchmaker example</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}</style></head>
<body><h1>colyseus-matchmaker example server</h1>
<ul>
<li><a href="/play/">Play</a>: join a queue from the browser, alone or as a party, and land in a game</li>
<li><a href="/playground">Playground</a>: the Colyseus playground (join any room by hand)</li>
<li><a href="/dashboard/">Dashboard</a>: every queue's waiting players, waits and longest-waiting tickets, live (operators)</li>
<li><a href="/monitor">Monitor</a>: the rooms of this process and their state (operators)</li>
<li><a href="/matchmaker/metrics">Metrics</a> (JSON; <a href="/matchmaker/metrics/prometheus">Prometheus</a>)</li>
</ul></body></html>`;

/** Mount with `app.get("/", frontPage())`. */
export function frontPage() {
  return (_req: IncomingMessage, res: ServerResponse): void => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(page);
  };
}
