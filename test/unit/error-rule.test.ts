/**
 * The error rule (docs/reference.md#errors): what a user or a client can cause is a
 * `MatchmakerError` with a code and the field at fault; a programming error is a `RangeError`
 * (a building block called against its precondition) or an `Error` (a broken invariant); the
 * simulator's command line keeps its `UsageError` to itself.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defineQueue } from "../../src/colyseus/MatchmakerRoom.js";
import { selectBackfill } from "../../src/core/backfill-selection.js";
import { MatchmakerError } from "../../src/core/errors.js";
import { Matchmaker } from "../../src/options/matchmaker.js";
import { PolicyRegistry } from "../../src/core/policy.js";
import { WaitEstimator } from "../../src/core/wait-estimate.js";
import { parseRoomOptions } from "../../src/options/queue-options.js";
import { greedy } from "../../src/policies/greedy.js";
import { checkTrace } from "../../src/trace/format.js";
import { simulate } from "../../src/sim/simulator.js";
import type { TrafficModel } from "../../src/sim/traffic.js";
import { thrown } from "../helpers/thrown.js";
import { solo } from "../helpers/tickets.js";

const ROOT = resolve(import.meta.dirname, "../..");

const traffic: TrafficModel = {
  arrivals: "poisson",
  rate: 2,
  parties: [{ value: 1, weight: 1 }],
  skill: { kind: "uniform" },
  sides: [{ value: undefined, weight: 1 }],
};

/** What a user or a client can cause, with the code and field each must carry. */
const CAUSED: Array<[what: string, call: () => unknown, code: string, field: string]> = [
  [
    "a queue option out of bounds",
    () => defineQueue({ teamSize: 2, gameRoom: "g", tickMs: 5 }),
    "invalid_config",
    "tickMs",
  ],
  [
    "a nested queue option out of bounds",
    () => parseRoomOptions({ teamSize: 2, gameRoom: "g", penalties: { windowMs: 10 } }),
    "invalid_config",
    "penalties.windowMs",
  ],
  [
    "an option that needs another",
    () => defineQueue({ teamSize: 2, gameRoom: "g", fillWithBots: true }),
    "invalid_config",
    "fillWithBots",
  ],
  ["the engine's options", () => new Matchmaker({ teamSize: 0 }), "invalid_config", "teamSize"],
  ["an unknown policy", () => new Matchmaker({ teamSize: 1, policy: "nope" }), "unknown_policy", "policy"],
  [
    "a policy's parameters",
    () => new Matchmaker({ teamSize: 1, policy: "expanding-window", params: { initial: 100, max: 50 } }),
    "invalid_config",
    "max",
  ],
  [
    "a policy's parameter that needs a queue option",
    () => new Matchmaker({ teamSize: 1, policy: "multi-queue", params: { r: "auto" } }),
    "invalid_config",
    "r",
  ],
  ["a policy registered twice", () => new PolicyRegistry([greedy, greedy]), "invalid_config", "name"],
  [
    "a bad join reaching the engine",
    () => new Matchmaker({ teamSize: 1 }).enqueue(solo("a", Number.NaN), 0),
    "invalid_ticket",
    "players.0.rating",
  ],
  [
    "a ticket already waiting",
    () => {
      const engine = new Matchmaker({ teamSize: 2 });
      engine.enqueue(solo("a"), 0);
      engine.enqueue(solo("a"), 1);
    },
    "duplicate_ticket",
    "id",
  ],
  [
    "a simulation's settings",
    () => simulate({ policy: "greedy", teamSize: 1, traffic, tickets: 0 }),
    "invalid_config",
    "tickets",
  ],
  [
    "a simulation's queue",
    () => simulate({ policy: "greedy", teamSize: 0, traffic, tickets: 10 }),
    "invalid_config",
    "teamSize",
  ],
  [
    "a simulation's traffic",
    () => simulate({ policy: "greedy", teamSize: 1, traffic: { ...traffic, rate: 0 }, tickets: 10 }),
    "invalid_config",
    "traffic.rate",
  ],
  [
    "a simulation's rising rate",
    () =>
      simulate({ policy: "greedy", teamSize: 1, traffic: { ...traffic, rising: { from: 0, over: 0 } }, tickets: 10 }),
    "invalid_config",
    "traffic.rising",
  ],
  ["a file that is not a trace", () => checkTrace({ format: "csv" }), "invalid_trace", "format"],
  [
    "a trace with a bad event",
    () =>
      checkTrace({
        format: "colyseus-matchmaker/traffic-trace",
        version: 1,
        engine: { policy: "greedy", teamSize: 1 },
        events: [{ e: "tick", t: 0 }, { e: "tick" }],
      }),
    "invalid_trace",
    "events.1.t",
  ],
];

describe("the error rule", () => {
  it.each(CAUSED)("%s is a MatchmakerError with its code and field", (_, call, code, field) => {
    const error = thrown(call, MatchmakerError);
    expect({ code: error.code, field: error.field }).toEqual({ code, field });
  });

  it("keeps RangeError for a building block called against its precondition", () => {
    expect(() => selectBackfill([], { count: 0, side: "A", targetRating: 0 })).toThrow(RangeError);
    expect(() => new WaitEstimator({ bandWidth: 0 })).toThrow(RangeError);
    // Neither is a MatchmakerError: a caller that maps refusals to clients does not mistake a bug for one.
    expect(thrown(() => new WaitEstimator({ bandWidth: 0 }), RangeError)).not.toBeInstanceOf(MatchmakerError);
  });

  it("documents every code in docs/reference.md#errors, and no other", () => {
    const declared = [
      ...readFileSync(resolve(ROOT, "src/core/errors.ts"), "utf8").matchAll(/^\s*\| "([a-z_]+)"/gm),
    ].map((m) => m[1]);
    const reference = readFileSync(resolve(ROOT, "docs/reference.md"), "utf8");
    const section = reference.slice(
      reference.indexOf("\n## Errors\n"),
      reference.indexOf("\n## ", reference.indexOf("\n## Errors\n") + 1),
    );
    const documented = section
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .flatMap((line) => [...line.split("|")[1].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    expect(declared.length).toBeGreaterThan(0);
    expect([...documented].sort()).toEqual([...declared].sort());
  });

  it("throws UsageError only in the simulator's command line", () => {
    const sources = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(join(dir, entry.name))
          : entry.name.endsWith(".ts")
            ? [join(dir, entry.name)]
            : [],
      );
    const throwing = sources("src").filter((file) =>
      readFileSync(join(ROOT, file), "utf8").includes("new UsageError("),
    );
    expect(throwing.length).toBeGreaterThan(0);
    expect(throwing.filter((file) => !/^src\/sim\/(options|[\w-]+-cli)\.ts$/.test(file))).toEqual([]);
  });
});
