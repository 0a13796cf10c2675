/**
 * What a player brings to a queue, as types: the join options a client sends, and the queue option
 * `players` through which the server says who the player is. The queue's options (`fields.ts`)
 * declare `players`; the room checks join options at the edge (`src/colyseus/join-options.ts`) and
 * runs the resolver (`src/colyseus/trusted-players.ts`). Declared here, below both, so that the
 * options never import the room.
 */
import type { Side } from "../core/types.js";
import type { CLIENT_OPTION_NAMES } from "./fields.js";
import type { MatchmakerRoomOptions } from "./queue-options.js";

/**
 * What a client may send when joining a queue (as parsed: a client may send `rank` instead of
 * `rating`, Colyseus `QueueRoom`'s name for it).
 */
export interface JoinOptions {
  /** The player's rating, within the queue's configured range (sent as `rating` or `rank`). */
  rating: number;
  /**
   * The side this player insists on; absent means either side. Only in a queue of two teams: a
   * queue of other games (more teams, a free-for-all) refuses it by name.
   */
  side?: Side;
  /** How uncertain the rating is (standard deviation), for the `win-probability` imbalance. */
  uncertainty?: number;
  /**
   * In a role queue (required there, refused elsewhere): the roles this player accepts, one or
   * more of the queue's roles, each at most once.
   */
  roles?: string[];
  /**
   * In a queue with zones: the zones this player accepts (one or more; absent means every zone
   * that admits the rating). Refused in a queue without zones.
   */
  zones?: string[];
  /**
   * Open a party of `size` players led by this player: 2 to the queue's team size (in a
   * free-for-all, to the game's size: the party plays in one game, each member for themselves).
   * The leader receives the party's code in a `party` message. Cannot be combined with `partyCode`.
   */
  party?: { size: number };
  /** Join the party with this code (from its leader). Members do not choose a `side`: the leader does. */
  partyCode?: string;
  /**
   * The player's account (e.g. an account id): an account is in one place in the queue (queue
   * option `duplicateAccount`), and it is whom the recent-opponent history (`avoidRecent`) and
   * blocks (`blocked`) remember; the session id otherwise, which changes at every visit. In a
   * queue with `players` it is the server's (`players.resolve`) and a client's is refused;
   * elsewhere clients can send any string, so it is not to be trusted.
   */
  playerId?: string;
  /**
   * In a queue that chooses zones by latency (`maxLatencyMs`; required there, refused elsewhere):
   * this player's latency in ms (0 to 60,000) to every zone of the queue, e.g. `{ eu: 30, us: 110 }`.
   */
  latencies?: Record<string, number>;
  /**
   * In a queue with `criteria` (required there, refused elsewhere): this player's value on every
   * criterion of the queue, within its range, e.g. `{ thinkTime: 12 }`. A party's members each
   * give their own.
   */
  criteria?: Record<string, number>;
}

/**
 * Join options as a client sent them, checked: in a queue with `players` (trusted players) the
 * rating and the other fields the server sets are absent until `players.resolve` gives them.
 */
export type ClientJoinOptions = Omit<JoinOptions, "rating"> & { rating?: number };

/** A join option a queue with `players` may let clients send (`players.clientOptions`). */
export type ClientOptionName = (typeof CLIENT_OPTION_NAMES)[number];

/** What `players.resolve` receives for each join. */
export interface PlayerRequest {
  /**
   * The client's auth token as Colyseus hands it to the room: with `@colyseus/auth`, the token the
   * SDK sends once `client.auth.token` is set (a sign-in sets it). Absent when the client sent none,
   * and when a subclass's static `onAuth` returned data (Colyseus then skips the room's own
   * `onAuth`; that data is in `auth`).
   */
  readonly token: string | undefined;
  /** What a subclass's static `onAuth` returned for this client (`client.auth`), if anything. */
  readonly auth: unknown;
  /** The client's join options, checked; the fields the server sets are not among them. */
  readonly options: Readonly<ClientJoinOptions>;
  /** The queue (room name). */
  readonly queue: string;
  /** The client's session id in the queue room. */
  readonly sessionId: string;
  /**
   * The client's address as the queue's limits see it: the connection's own, or the client a
   * trusted proxy names (`trustedProxies`); never a header the client wrote. `"unknown"` when the
   * connection shows none.
   */
  readonly address: string;
  /** The WebSocket request's headers (cookies, …), where Colyseus gives them (the room's own `onAuth`). */
  readonly headers?: Headers;
}

/** What `players.resolve` answers: the player's fields from the server. */
export interface TrustedPlayer {
  /** The account: the queue's `Player.playerId` (rematch history, one place per account). 1 to 128 characters. */
  readonly playerId: string;
  /** The rating, within the queue's range; required unless `clientOptions` names `rating`. */
  readonly rating?: number;
  /** The rating's standard deviation (optional); only when `clientOptions` does not name `uncertainty`. */
  readonly uncertainty?: number;
  /** In a queue with `criteria` whose `clientOptions` leaves `criteria` out: a value for each criterion. */
  readonly criteria?: Readonly<Record<string, number>>;
}

/**
 * The queue option `players`: trusted players (see docs/players.md#trusted-players), as declared
 * with its fields' documentation and defaults in `fields.ts`.
 */
export type PlayersOption = NonNullable<MatchmakerRoomOptions["players"]>;
