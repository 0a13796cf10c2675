/**
 * Trusted players (the queue option `players`): who a joining client is, and what its rating is,
 * come from the server. The game's `players.resolve` turns each join (the client's auth token, what
 * a static `onAuth` returned, the checked join options) into the player's fields, from its own
 * accounts and storage; the queue refuses those fields by name when a client sends them.
 *
 * The resolver is the game's code, so its answer is checked like any input (a bug there must not
 * seat a player with a rating outside the queue's range, nor crash the queue) and bounded in time.
 */
import * as v from "valibot";
import type { Criterion } from "../core/criteria.js";
import { MatchmakerError } from "../core/errors.js";
import { describeIssues } from "../core/validation.js";
import type { ClientJoinOptions, ClientOptionName, JoinOptions, PlayerRequest } from "../options/player-options.js";
import type { ResolvedRoomOptions } from "../options/queue-options.js";
import {
  joinCriteriaSchema,
  playerIdSchema,
  ratingSchema,
  refusedSchema,
  uncertaintySchema,
  type RefusedJoinOptions,
} from "./join-options.js";
import type { RankedRatings } from "./ranked.js";
import { TimedOut, withinMs } from "./time-limit.js";

/** The `players` option as checked, defaults filled. */
export type ResolvedPlayersOption = NonNullable<ResolvedRoomOptions["players"]>;

/**
 * Thrown by `players.resolve` to refuse a join with a message for the client: it receives 525
 * `player refused: <message>`, e.g. `player refused: sign in first`.
 */
export class PlayerRefused extends MatchmakerError {
  constructor(message: string) {
    super("player_refused", message);
    this.name = "PlayerRefused";
  }
}

/** The player fields the server may set, and how a client that sends one is told. */
const SERVER_FIELD_MESSAGES = {
  rating: "this queue takes ratings from the server; do not send it",
  uncertainty: "this queue takes rating uncertainties from the server; do not send it",
  criteria: "this queue takes criteria values from the server; do not send it",
  playerId: "this queue takes player ids from the server; do not send it",
} as const;

/**
 * The join options a queue with `players` refuses by name, with the message: the player fields the
 * server sets, and the other options `clientOptions` leaves out. `criteria` only where the queue
 * has criteria (elsewhere the usual "this queue has no criteria" stands).
 */
export function refusedJoinOptions(
  clientOptions: readonly ClientOptionName[],
  queueHasCriteria: boolean,
): RefusedJoinOptions {
  const allowed = new Set<string>(clientOptions);
  const refused: Partial<Record<keyof JoinOptions, string>> = { playerId: SERVER_FIELD_MESSAGES.playerId };
  if (!allowed.has("rating")) refused.rating = SERVER_FIELD_MESSAGES.rating;
  if (!allowed.has("uncertainty")) refused.uncertainty = SERVER_FIELD_MESSAGES.uncertainty;
  if (!allowed.has("criteria") && queueHasCriteria) refused.criteria = SERVER_FIELD_MESSAGES.criteria;
  for (const name of ["side", "zones", "roles", "latencies", "party", "partyCode"] as const)
    if (!allowed.has(name)) refused[name] = "this queue does not take it from clients";
  return refused;
}

/** The queue as the resolver checks against it: its rating range, its criteria, and its ratings if it is ranked. */
interface ResolvingQueue {
  readonly rating: { readonly min: number; readonly max: number };
  readonly criteria?: readonly Criterion[];
  /** A ranked queue (option `ratings`): the rating and uncertainty come from here, never from the resolver. */
  readonly ranked?: RankedRatings;
}

/** The checks of `players.resolve`'s answer for one queue: its rating range and criteria, and which fields are the server's. */
function trustedPlayerSchema(clientOptions: readonly ClientOptionName[], queue: ResolvingQueue) {
  const fromClient = new Set<string>(clientOptions);
  const clients = (name: string) => `is the client's in this queue (players.clientOptions names ${name})`;
  const ranked = (name: string) =>
    `comes from the queue's ratings in a ranked queue (option ratings): players.resolve must not answer ${name}`;
  return v.strictObject(
    {
      playerId: playerIdSchema,
      rating: queue.ranked
        ? refusedSchema(ranked("rating"))
        : fromClient.has("rating")
          ? refusedSchema(clients("rating"))
          : ratingSchema(queue.rating),
      uncertainty: queue.ranked
        ? refusedSchema(ranked("uncertainty"))
        : fromClient.has("uncertainty")
          ? refusedSchema(clients("uncertainty"))
          : v.optional(uncertaintySchema),
      criteria: !queue.criteria
        ? refusedSchema("this queue has no criteria")
        : fromClient.has("criteria")
          ? refusedSchema(clients("criteria"))
          : joinCriteriaSchema(queue.criteria),
    },
    (issue) =>
      issue.expected === "never"
        ? "unknown field"
        : issue.expected === "Object"
          ? "must be an object { playerId, rating, … }"
          : "is required",
  );
}

/**
 * One queue's resolution of joining clients into trusted players: calls `players.resolve`, bounds
 * its time, checks its answer and merges it into the client's join options.
 */
export class PlayerResolver {
  /** The join options this queue refuses by name (for its join schema). */
  readonly refused: RefusedJoinOptions;
  private readonly schema: ReturnType<typeof trustedPlayerSchema>;
  private readonly fromServer: { rating: boolean; uncertainty: boolean; criteria: boolean };
  private readonly ranked: RankedRatings | undefined;

  constructor(
    private readonly option: ResolvedPlayersOption,
    queue: ResolvingQueue,
    /** Where failures of the resolver are reported for operators (the client hears a short reason). */
    private readonly log: (message: string) => void,
  ) {
    const client = new Set<string>(option.clientOptions);
    this.refused = refusedJoinOptions(option.clientOptions, queue.criteria !== undefined);
    this.schema = trustedPlayerSchema(option.clientOptions, queue);
    this.ranked = queue.ranked;
    this.fromServer = {
      rating: !client.has("rating"),
      uncertainty: !client.has("uncertainty"),
      criteria: !client.has("criteria") && queue.criteria !== undefined,
    };
  }

  /**
   * The complete join: the client's checked options with the server's fields. Throws
   * `MatchmakerError` (`player_refused`, or the resolver's own `join_refused`) when the resolver
   * refuses, fails, answers badly or takes longer than `timeoutMs`; never anything else.
   */
  async resolve(join: ClientJoinOptions, request: Omit<PlayerRequest, "options">): Promise<JoinOptions> {
    const where = `[${request.queue}] players.resolve`;
    let answer: unknown;
    try {
      answer = await withinMs(
        Promise.resolve().then(() => this.option.resolve({ ...request, options: { ...join } })),
        this.option.timeoutMs,
      );
    } catch (error) {
      if (error instanceof MatchmakerError && (error.code === "player_refused" || error.code === "join_refused"))
        throw error;
      if (error instanceof TimedOut) throw this.tookTooLong(`${where} gave no answer`);
      this.log(`${where} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new PlayerRefused("the server could not identify this player");
    }
    const checked = v.safeParse(this.schema, answer);
    if (!checked.success) {
      const problem = describeIssues(checked.issues);
      this.log(`${where} answered fields the queue refuses: ${problem}`);
      throw new PlayerRefused(`the server's data for this player is invalid (${problem})`);
    }
    const player = checked.output;
    const rated = this.ranked ? await this.rankedRating(player.playerId, request.queue) : player;
    return {
      ...join,
      playerId: player.playerId,
      ...(this.fromServer.rating ? { rating: rated.rating } : {}),
      ...(this.fromServer.uncertainty && rated.uncertainty !== undefined ? { uncertainty: rated.uncertainty } : {}),
      ...(this.fromServer.criteria ? { criteria: player.criteria } : {}),
    } as JoinOptions;
  }

  /** A ranked queue's rating of the player, within the resolver's time (the store may hang too). */
  private async rankedRating(playerId: string, queue: string): Promise<{ rating: number; uncertainty: number }> {
    try {
      return await withinMs(this.ranked!.of(playerId), this.option.timeoutMs);
    } catch (error) {
      if (error instanceof TimedOut) throw this.tookTooLong(`[${queue}] ratings gave no rating`);
      throw error; // the ranked ratings' own refusal, already logged
    }
  }

  private tookTooLong(what: string): PlayerRefused {
    this.log(`${what} within ${this.option.timeoutMs} ms: join refused`);
    return new PlayerRefused(`identifying this player took too long (over ${this.option.timeoutMs} ms); try again`);
  }
}

/**
 * A resume (Redis) of a place stored for `storedPlayerId`, by a client the resolver identified as
 * `join.playerId`: a resume token is only as good as the account that holds it, so another
 * account's place is refused (naming `resume`; the client joins anew).
 */
export function checkResumingPlayer(storedPlayerId: string | undefined, join: JoinOptions): void {
  if (storedPlayerId !== join.playerId)
    throw new MatchmakerError("join_refused", "resume: this place belongs to another player", "resume");
}
