/**
 * What the player page knows of each queue: `/play/queues.json`, made from the queue room types
 * this process defines (`defineQueue`, `defineRoom(MatchmakerRoom, …)` or a subclass).
 */
import { matchMaker } from "@colyseus/core";
import { MatchmakerRoom } from "../colyseus/MatchmakerRoom.js";
import type { ZoneOption } from "../core/zones.js";
import { DEFAULTS, defaultPolicy, type MatchmakerRoomOptions } from "../options/index.js";
import { isShapeProblem, shapeFromOptions } from "../options/shape-options.js";
import { describeQueueShape, type QueueShape } from "./queue-shape.js";

export type { QueueShape } from "./queue-shape.js";

/** One queue as the player page shows it. */
export interface QueueDescription {
  /** The room name to join. */
  readonly name: string;
  /** The shape of its games: teams or a free-for-all, how many players, when a game starts short-handed. */
  readonly shape: QueueShape;
  readonly policy: string;
  /** The zones a player may pick (empty: the queue has none). */
  readonly zones: readonly string[];
  /**
   * Regions by latency (`maxLatencyMs`): a player sends its latency to every zone, and waits in
   * those it reaches within `maxMs`, widening by `growthPerSecond` per second waited up to `capMs`
   * (null: without limit). Null when the queue does not choose zones by latency.
   */
  readonly latency: { readonly maxMs: number; readonly growthPerSecond: number; readonly capMs: number | null } | null;
  /** The ready check's time to accept (ms), or null without one. */
  readonly readyCheckMs: number | null;
  readonly rating: { readonly min: number; readonly max: number };
  /** A role queue: the page does not offer it (players must pick roles). */
  readonly roles: boolean;
  /** Ratings and accounts come from the server (the queue option `players`): sign in, and send no rating. */
  readonly trustedPlayers: boolean;
  /** A ranked queue (the queue option `ratings`): its games' results move its players' ratings. */
  readonly ranked: boolean;
}

/** Every queue room type registered in this process, by name, with the options it was defined with. */
function queueOptions(): Map<string, MatchmakerRoomOptions> {
  const handlers = Object.entries(matchMaker.getAllHandlers()).filter(
    ([, handler]) => handler.klass === MatchmakerRoom || handler.klass.prototype instanceof MatchmakerRoom,
  );
  return new Map(handlers.map(([name, handler]) => [name, (handler.options ?? {}) as MatchmakerRoomOptions]));
}

/**
 * The ratings of the ranked queue `name`: its own `ratings` option, so the dashboard reads the
 * ledger the queue rates with. Undefined for a queue that is not defined or not ranked.
 */
export function queueRatings(name: string): MatchmakerRoomOptions["ratings"] {
  return queueOptions().get(name)?.ratings;
}

const zoneName = (zone: ZoneOption) => (typeof zone === "string" ? zone : zone.name);

/**
 * Every queue room type registered in this process (or those of `names`, in that order), as
 * the player page shows it. A queue whose options make no shape of game is left out: it forms
 * no games (its room refuses to start, naming the option).
 */
export function describeQueues(names?: readonly string[]): QueueDescription[] {
  const queues = [...queueOptions()];
  const chosen = names ? names.flatMap((name) => queues.filter(([queue]) => queue === name)) : queues;
  return chosen.flatMap(([name, options]) => {
    const shape = shapeFromOptions(options);
    if (isShapeProblem(shape)) return [];
    const description: QueueDescription = {
      name,
      shape: describeQueueShape(shape, options.shortHandedAfterMs),
      policy: options.policy ?? defaultPolicy(options.roles),
      zones: (options.zones ?? []).map(zoneName),
      latency:
        options.maxLatencyMs === undefined
          ? null
          : {
              maxMs: options.maxLatencyMs,
              growthPerSecond: options.maxLatencyGrowthPerSecond ?? 0,
              capMs: options.maxLatencyCapMs ?? null,
            },
      readyCheckMs: options.readyCheck?.timeoutMs ?? null,
      rating: { min: options.rating?.min ?? DEFAULTS.rating.min, max: options.rating?.max ?? DEFAULTS.rating.max },
      roles: Boolean(options.roles),
      trustedPlayers: Boolean(options.players),
      ranked: Boolean(options.ratings),
    };
    return [description];
  });
}
