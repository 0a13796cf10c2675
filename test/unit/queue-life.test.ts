import { describe, expect, it } from "vitest";
import { QueueLives } from "../../src/colyseus/queue-life.js";

const duel = { teamSize: 1, gameRoom: "g" };
const alive = () => true;
const gone = () => false;

describe("QueueLives: one life per queue name, rooms attach one after another", () => {
  it("gives the next room of a name the same life, its engine emptied of what the last room left", () => {
    const lives = new QueueLives();
    const first = lives.attach("duel", duel, "r1", gone);
    first.matchmaker.enqueue({ id: "t1", players: [{ sessionId: "t1", rating: 1500 }], enqueuedAt: 0 }, 0);
    first.totals.declines++;
    lives.detach(first, "r1", 10, false);
    expect(first.roomId).toBeUndefined();
    expect(first.matchmaker.size).toBe(0);
    const second = lives.attach("duel", duel, "r2", gone);
    expect(second).toBe(first);
    expect(second.totals.declines).toBe(1);
    expect(lives.size).toBe(1);
  });

  it("gives a second room live at once a life of its own, not kept", () => {
    const lives = new QueueLives();
    const first = lives.attach("duel", duel, "r1", alive);
    const second = lives.attach("duel", duel, "r2", alive);
    expect(second).not.toBe(first);
    expect(second.roomId).toBe("r2");
    lives.detach(second, "r2", 0, false);
    expect(lives.attach("duel", duel, "r3", gone)).toBe(first); // r1's room is gone: r3 takes the name's life
    expect(lives.size).toBe(1);
  });

  it("starts afresh after a room the server closed, and for a queue defined again with other options", () => {
    const lives = new QueueLives();
    const first = lives.attach("duel", duel, "r1", gone);
    lives.detach(first, "r1", 0, true);
    const second = lives.attach("duel", duel, "r2", gone);
    expect(second).not.toBe(first);
    lives.detach(second, "r2", 0, false);
    const redefined = lives.attach("duel", { ...duel }, "r3", gone);
    expect(redefined).not.toBe(second);
    expect(lives.size).toBe(1);
  });

  it("lists a queue that never had a room with its figures, nobody waiting", () => {
    const lives = new QueueLives();
    const life = lives.of("duel", duel)!;
    expect(life.idleMetrics(0)).toMatchObject({
      queue: "duel",
      roomId: null,
      teamSize: 1,
      matchesFormed: 0,
      waitingPlayers: 0,
      p95WaitMs: null,
      oldestWaitMs: null,
    });
    expect(lives.of("duel", duel)).toBe(life);
    expect(lives.of("broken", { teamSize: "two" })).toBeUndefined();
  });
});
