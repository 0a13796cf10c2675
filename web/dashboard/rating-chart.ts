/**
 * A ranked queue's rating distribution in its dashboard panel: a uPlot histogram of the current
 * season's players by rating, from `ratings.json` beside the page (the server bounds the bands),
 * with the count, the season and the band width in words. Ratings move only when a game ends, so
 * it is asked every few seconds, not at every poll of the figures.
 */
import uPlot from "uplot";
import type { RatingDistribution } from "../../src/web/rating-distribution.js";
import { histogramBars } from "./histogram.js";

/** How often a ranked queue's distribution is asked again (ms). */
const EVERY_MS = 5000;

export class RatingChart {
  private readonly note: HTMLElement;
  private readonly chart: uPlot;
  private width = 50;
  private askedAt = -Infinity;

  constructor(
    private readonly queue: string,
    into: HTMLElement,
  ) {
    const box = document.createElement("div");
    box.className = "ratings";
    box.innerHTML = `<h3>Ratings this season</h3><p class="ratings-note">asking…</p>`;
    into.append(box);
    this.note = box.querySelector<HTMLElement>(".ratings-note")!;
    this.chart = new uPlot(
      {
        title: "players by rating",
        width: 430,
        height: 200,
        // The last band's bar ends a band's width after its left edge.
        scales: { x: { time: false, range: (_u, min, max) => [min, max + this.width] } },
        series: [
          { label: "rating from" },
          {
            label: "players",
            stroke: "#5c3566",
            fill: "#ad7fa8",
            paths: uPlot.paths.bars!({ align: 1, size: [1, Infinity] }),
            points: { show: false },
          },
        ],
      },
      [[], []],
      box,
    );
  }

  /** Ask for the distribution when it is due; a failure is said in the panel and asked again next time. */
  async refresh(now = Date.now()): Promise<void> {
    if (now - this.askedAt < EVERY_MS) return;
    this.askedAt = now;
    try {
      const response = await fetch(`ratings.json?queue=${encodeURIComponent(this.queue)}`);
      const answer = (await response.json()) as RatingDistribution | { error: string };
      if ("error" in answer) throw new Error(answer.error);
      this.show(answer);
    } catch (error) {
      this.note.textContent = `the ratings could not be read: ${String(error)}`;
    }
  }

  private show(distribution: RatingDistribution): void {
    this.width = distribution.width;
    const bars = histogramBars(distribution.bins, distribution.width);
    this.chart.setData([bars.from, bars.count]);
    const box = this.note.parentElement!;
    box.dataset.players = String(distribution.players);
    box.dataset.bars = String(bars.from.length);
    this.note.textContent =
      distribution.players === 0
        ? `no rated players yet in season ${distribution.season}`
        : `${distribution.players} rated players in season ${distribution.season}, in bands of ${distribution.width} points`;
  }
}
