/**
 * The operator dashboard (`dashboardPage()` of `colyseus-matchmaker/web`): polls the server's
 * `/matchmaker/metrics` (figures) and `/matchmaker/metrics/sample` (longest-waiting tickets) once a second, and draws each queue's
 * waiting players and wait percentiles over the last five minutes as uPlot charts, beside its
 * state in words, its running totals and its waiting sample. Every defined queue has its panel
 * from the start (the metrics list them all), and a queue keeps its panel across its rooms. Each
 * panel says its queue's shape (`queues.json` beside the page) and shows the quality figure that
 * fits it: the mean imbalance of team games, the mean rating spread of a free-for-all's. A ranked
 * queue's panel also draws its rating distribution (rating-chart.ts).
 */
import uPlot from "uplot";
import type { QueueMetrics, QueueSample } from "../../src/colyseus/metrics.js";
import type { SampleTicket } from "../../src/colyseus/queue-view.js";
import type { QueueDescription, QueueShape } from "../../src/web/queues.js";
import { RatingChart } from "./rating-chart.js";

/**
 * A queue's figures as the metrics serve them; `meanSpread` (the mean rating spread of recent
 * matches, null before the first) where the server reports it.
 */
type QueueFigures = QueueMetrics & { readonly meanSpread?: number | null };

const KEEP = 300; // points per series: five minutes at one a second
// Where the server mounted matchmakerMetrics(): the page's meta tag, set by dashboardPage({ metrics }).
const metricsPath =
  document.querySelector<HTMLMetaElement>('meta[name="matchmaker-metrics"]')?.content.replace(/\/+$/, "") ||
  "../matchmaker/metrics";
const metricsUrl = new URL(metricsPath, location.href);
const sampleUrl = new URL(`${metricsPath}/sample?limit=10`, location.href);

/** Each queue's description, by name (they do not change while the server runs: asked until known). */
let described: Map<string, QueueDescription> | undefined;

async function loadQueues(): Promise<Map<string, QueueDescription>> {
  const { queues } = (await fetch("queues.json").then((r) => r.json())) as { queues: QueueDescription[] };
  return new Map(queues.map((q) => [q.name, q]));
}

/** One queue's panel: its time series, two charts, its state, the counters and the sample. */
interface Panel {
  readonly section: HTMLElement;
  readonly heading: HTMLElement;
  readonly state: HTMLElement;
  readonly times: number[];
  readonly waiting: number[];
  readonly p50: Array<number | null>;
  readonly p95: Array<number | null>;
  readonly waitingChart: uPlot;
  readonly waitChart: uPlot;
  readonly counters: HTMLElement;
  readonly hour: HTMLElement;
  readonly sample: HTMLElement;
  /** A ranked queue's rating distribution, once the queue is known to be ranked. */
  ratings?: RatingChart;
}
const panels = new Map<string, Panel>();

/** The shortest time axis the charts show, in seconds. */
const MIN_SPAN_S = 60;

function chart(title: string, series: uPlot.Series[], into: HTMLElement): uPlot {
  return new uPlot(
    { title, width: 430, height: 200, scales: { x: { time: true } }, series: [{}, ...series] },
    [[], ...series.map(() => [])],
    into,
  );
}

/** A queue's panel, by name: its rooms come and go, its panel and history stay. */
function panelFor(q: QueueFigures, key: string): Panel {
  let panel = panels.get(key);
  if (panel) return panel;
  const section = document.createElement("section");
  section.dataset.queue = q.queue;
  section.innerHTML = `<h2></h2><p class="state"></p>
    <div class="charts"></div><table class="counters"></table><p class="hour"></p>
    <h3>Longest waiting</h3><table class="sample"></table>`;
  document.getElementById("queues")!.append(section);
  const charts = section.querySelector<HTMLElement>(".charts")!;
  panel = {
    section,
    heading: section.querySelector<HTMLElement>("h2")!,
    state: section.querySelector<HTMLElement>(".state")!,
    times: [],
    waiting: [],
    p50: [],
    p95: [],
    waitingChart: chart("waiting players", [{ label: "waiting", stroke: "#3465a4", width: 2 }], charts),
    waitChart: chart(
      "recent waits (s)",
      [
        { label: "p50", stroke: "#4e9a06", width: 2 },
        { label: "p95", stroke: "#cc0000", width: 2 },
      ],
      charts,
    ),
    counters: section.querySelector<HTMLElement>(".counters")!,
    hour: section.querySelector<HTMLElement>(".hour")!,
    sample: section.querySelector<HTMLElement>(".sample")!,
  };
  panels.set(key, panel);
  return panel;
}

const row = (cells: Array<string | number>, tag = "td") =>
  `<tr>${cells.map((c) => `<${tag}>${String(c).replace(/[<&]/g, (ch) => (ch === "<" ? "&lt;" : "&amp;"))}</${tag}>`).join("")}</tr>`;

const escape = (text: string) => text.replace(/[<&]/g, (ch) => (ch === "<" ? "&lt;" : "&amp;"));
const secondsOf = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The queue's state in words: `idle` (no players yet), `waiting` (players wait, with the longest
 * wait), `drained` (nobody waits now); then its matches ("no matches yet" before the first).
 */
function stateOf(q: QueueFigures): { state: "idle" | "waiting" | "drained"; text: string } {
  const matches =
    q.matchesFormed === 0
      ? "no matches yet"
      : `${q.matchesFormed} matches, ${q.playersMatched} players seated` +
        (q.p95WaitMs === null ? "" : `; recent waits p95 ${secondsOf(q.p95WaitMs)}`);
  if (q.waitingPlayers > 0) {
    const longest = q.oldestWaitMs === null ? "" : `, the longest for ${secondsOf(q.oldestWaitMs)}`;
    return { state: "waiting", text: `${q.waitingPlayers} waiting${longest}; ${matches}` };
  }
  if (q.matchesFormed === 0 && q.playersMatched === 0) return { state: "idle", text: `no players yet; ${matches}` };
  return { state: "drained", text: `nobody waiting; ${matches}` };
}

/** The shape in words, with when its games start short-handed. */
function shapeText(shape: QueueShape): string {
  const after = shape.shortHandedAfterMs === null ? "" : `, short-handed after ${secondsOf(shape.shortHandedAfterMs)}`;
  return `${shape.text}${after}`;
}

/** The quality figure that fits the shape: a free-for-all's mean spread, a team game's mean imbalance. */
function quality(q: QueueFigures, shape: QueueShape | undefined): [string, string] {
  const figure = (value: number | null | undefined) => (value === null || value === undefined ? "–" : value.toFixed(1));
  return shape?.kind === "free-for-all"
    ? ["mean spread", figure(q.meanSpread)]
    : ["mean imbalance", figure(q.meanImbalance)];
}

function show(q: QueueFigures, key: string, sample: readonly SampleTicket[], now: number): void {
  const p = panelFor(q, key);
  const room = q.roomId === null ? "no room now" : `room ${q.roomId}`;
  const description = described?.get(q.queue);
  const shape = description?.shape;
  if (description?.ranked) {
    p.ratings ??= new RatingChart(q.queue, p.section.querySelector<HTMLElement>(".charts")!);
    void p.ratings.refresh();
  }
  const words = shape ? `${shapeText(shape)}; ` : "";
  p.heading.innerHTML = `${escape(q.queue)} <small>(${escape(words)}${escape(q.policy)}, ${escape(room)})</small>`;
  if (shape) p.section.dataset.shape = shape.kind;
  // Sides (and so the side mix and side preferences) exist only in a game of two teams.
  const sides = shape?.sides ?? true;
  const [qualityName, qualityValue] = quality(q, shape);
  const { state, text } = stateOf(q);
  p.section.dataset.state = state;
  p.state.textContent = text;
  p.times.push(now);
  p.waiting.push(q.waitingPlayers);
  // No recent match: a gap in the chart, not a wait of 0.
  p.p50.push(q.p50WaitMs === null ? null : q.p50WaitMs / 1000);
  p.p95.push(q.p95WaitMs === null ? null : q.p95WaitMs / 1000);
  for (const series of [p.times, p.waiting, p.p50, p.p95]) if (series.length > KEEP) series.shift();
  p.section.dataset.points = String(p.times.length); // how much history the charts hold
  p.waitingChart.setData([p.times, p.waiting]);
  p.waitChart.setData([p.times, p.p50, p.p95]);
  // At least a minute of time axis, ending now: uPlot would stretch a single sample over a day or more.
  const span = { min: Math.min(p.times[0]!, now - MIN_SPAN_S), max: now };
  p.waitingChart.setScale("x", span);
  p.waitChart.setScale("x", span);
  p.counters.innerHTML =
    row(
      [
        "waiting",
        "matches",
        "players seated",
        "no-shows",
        "requeued",
        qualityName,
        "declines",
        "spawn failures",
        "abandoned",
        "backfill failures",
        "side mix",
      ],
      "th",
    ) +
    row([
      q.waitingPlayers,
      q.matchesFormed,
      q.playersMatched,
      // Seats that expired unused; players put back in the queue after a seat fell through.
      q.seatsExpiredRequeued + q.seatsExpiredRemoved,
      q.seatsExpiredRequeued + q.seatsLostRequeued,
      qualityValue,
      q.declines,
      q.spawnFailures,
      q.abandonedMatches,
      q.backfillFailures,
      sides ? (q.sideMixUnstable ? "unstable" : "ok") : "–",
    ]);
  const h = q.lastHour;
  p.hour.textContent = `Last hour: ${h.matches} matches, ${h.playersSeated} players seated, ${h.noShows} no-shows, ${h.requeued} requeued.`;
  p.sample.innerHTML =
    row(["ticket", "rating", "party", "side", "zones", "waited"], "th") +
    sample
      .map((t) =>
        row([
          t.id,
          Math.round(t.rating),
          t.partySize,
          sides ? t.side || "any" : "–",
          t.zones.join(", ") || "–",
          `${t.waitedS} s`,
        ]),
      )
      .join("");
}

async function poll(): Promise<void> {
  try {
    // Without the shapes (not answered yet), the figures still show; the shapes are asked again.
    described ??= await loadQueues().catch(() => undefined);
    const [metrics, samples] = await Promise.all([
      fetch(metricsUrl).then((r) => r.json() as Promise<{ queues: QueueFigures[] }>),
      fetch(sampleUrl).then((r) => r.json() as Promise<{ queues: QueueSample[] }>),
    ]);
    const now = Date.now() / 1000;
    const sampleOf = new Map(samples.queues.map((s) => [s.roomId, s.sample]));
    // One panel per queue name; a second room of one name live at once (a client's `create`) gets its own.
    const named = new Set<string>();
    for (const q of metrics.queues) {
      const key = named.has(q.queue) ? `${q.queue}/${q.roomId}` : q.queue;
      named.add(q.queue);
      show(q, key, (q.roomId !== null && sampleOf.get(q.roomId)) || [], now);
    }
    if (metrics.queues.length === 0) document.getElementById("queues")!.textContent = "No queue is defined.";
    document.getElementById("error")!.textContent = "";
  } catch (error) {
    document.getElementById("error")!.textContent = `the server did not answer: ${String(error)}`;
  }
}

await poll();
setInterval(poll, 1000);
