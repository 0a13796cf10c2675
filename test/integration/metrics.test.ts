import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import app from "../../example-server/app.config.js";
import type { MatchmakerRoom, QueueMetrics } from "../../src/index.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

const base = () => `http://localhost:${testPort(21)}`;

async function metrics(): Promise<QueueMetrics[]> {
  const res = await fetch(`${base()}/matchmaker/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return ((await res.json()) as { queues: QueueMetrics[] }).queues;
}

describe("operators' figures", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, testPort(21));
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it("serves every queue's figures as JSON and Prometheus text, the same the monitor shows", async () => {
    // squad (2v2): three solos wait, two insisting on side A. duel (1v1): two play at once.
    const squad = [
      await joinQueue(server, "squad", { rating: 1500, side: "A" }),
      await joinQueue(server, "squad", { rating: 1510, side: "A" }),
      await joinQueue(server, "squad", { rating: 1490 }),
    ];
    const duel = [await joinQueue(server, "duel", { rating: 1000 }), await joinQueue(server, "duel", { rating: 1005 })];
    await within(Promise.all(duel.map((d) => d.seat)), 5000, "duel seats");

    let squadFigures!: QueueMetrics;
    let duelFigures!: QueueMetrics;
    await vi.waitFor(
      async () => {
        const all = await metrics();
        squadFigures = all.find((m) => m.queue === "squad")!;
        duelFigures = all.find((m) => m.queue === "duel")!;
        expect(squadFigures.waitingBySide).toEqual({ A: 2, any: 1 });
      },
      { timeout: 3000, interval: 100 },
    );
    expect(squadFigures).toMatchObject({
      policy: "greedy",
      teamSize: 2,
      waitingPlayers: 3,
      waitingTickets: 3,
      waitingByPartySize: { "1": 3 },
      waitingByZone: {},
      matchesFormed: 0,
      declines: 0,
      spawnFailures: 0,
      backfillPending: 0,
    });
    expect(duelFigures).toMatchObject({ matchesFormed: 1, playersMatched: 2, waitingPlayers: 0, waitingBySide: {} });
    // The duel's two choice-free players were matched: their side's recent mean wait, nothing for A or B.
    expect(Object.keys(duelFigures.meanWaitMsBySide)).toEqual(["any"]);
    expect(duelFigures.meanWaitMsBySide.any).toBeGreaterThanOrEqual(0);
    expect(squadFigures).toMatchObject({ meanWaitMsBySide: {}, meanWaitMsByZone: {}, sideMixUnstable: false });
    expect(duelFigures.recentMatches).toBe(1);
    expect(duelFigures.p50WaitMs!).toBeLessThanOrEqual(duelFigures.p95WaitMs!);
    expect(duelFigures.p95WaitMs!).toBeLessThanOrEqual(duelFigures.p99WaitMs!);
    // No match in squad yet: its recent waits are "none yet", not 0; its three players do wait.
    expect(squadFigures).toMatchObject({ recentMatches: 0, p95WaitMs: null, meanImbalance: null });
    expect(squadFigures.oldestWaitMs).toBeGreaterThanOrEqual(0);
    expect(duelFigures.oldestWaitMs).toBeNull();
    // The room's own getMetrics() is what the endpoint serves.
    const squadRoom = server.getRoomById<MatchmakerRoom>(squad[0].queue.roomId);
    // (but for the longest current wait, which grew since)
    expect(squadRoom.getMetrics()).toEqual({ ...squadFigures, oldestWaitMs: expect.any(Number) });

    // The monitor shows the same figures in the room's state.
    const monitor = await server.http.get(`/monitor/api/room?roomId=${squad[0].queue.roomId}`);
    const figures = (monitor.data as { state: { figures: Record<string, unknown> } }).state.figures;
    expect(figures).toMatchObject({
      waitingPlayers: 3,
      waitingBySide: { A: 2, any: 1 },
      waitingByPartySize: { "1": 3 },
      declines: 0,
    });

    for (const path of ["/matchmaker/metrics/prometheus", "/matchmaker/metrics?format=prometheus"]) {
      const res = await fetch(base() + path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      const text = await res.text();
      // Labelled by queue, not room: a queue's series outlive its rooms.
      expect(text).toContain("# TYPE matchmaker_waiting_players gauge");
      expect(text).toContain(`matchmaker_waiting_players{queue="squad"} 3`);
      expect(text).toContain(`matchmaker_waiting_players_by_side{queue="squad",side="A"} 2`);
      expect(text).toContain(`matchmaker_waiting_players_by_party_size{queue="squad",party_size="1"} 3`);
      expect(text).toContain("# TYPE matchmaker_matches_formed_total counter");
      expect(text).toMatch(/^matchmaker_matches_formed_total\{queue="duel"\} 1$/m);
      expect(text).toMatch(/^matchmaker_recent_wait_seconds\{queue="duel",quantile="0\.99"\} [0-9.e-]+$/m);
      expect(text).not.toMatch(/^matchmaker_recent_wait_seconds\{queue="squad"/m);
      expect(text).toContain(`matchmaker_queue_room_live{queue="squad"} 1`);
      // Every sample line is `name{labels} value`.
      for (const line of text.trim().split("\n"))
        if (!line.startsWith("#")) expect(line).toMatch(/^[a-z_]+\{[^}]*\} -?[0-9.e+-]+$/);
    }
    expect((await fetch(`${base()}/matchmaker/metrics/nothing`)).status).toBe(404);
    for (const c of [...squad, ...duel]) await c.queue.leave();
  });
});
