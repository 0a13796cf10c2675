/**
 * The queue room's side of the offence rule (`offences.ts`): which account a client is, a join
 * refused while its account cools down, and each offence judged and told to the player. The
 * session calls it through {@link OffenceJudge}; the room through `admit`, `joined` and `left`.
 *
 * The ledger is this process's for the queue's name. When the queue runs on shared presence
 * (Redis), every record is also written there with a TTL (its window or cooldown, whichever ends
 * later), and a join reads its account's record back first: a queue room on another process (the
 * queue moved, or its process restarted) then knows the account's offences and cooldown too.
 */
import { createHash } from "node:crypto";
import type { Client, Presence } from "@colyseus/core";
import { MatchmakerError } from "../core/errors.js";
import { limitKey } from "../server/ip-address.js";
import { secondsToWait } from "./client-error.js";
import type { OffenceJudge, PenaltyNotice } from "./director/tickets.js";
import {
  mergeRecords,
  parseRecord,
  recordExpiresAt,
  type Judgement,
  type OffenceCounts,
  type OffenceKind,
  type OffenceLedger,
  type OffenceRecord,
  type PenaltyOptions,
} from "./offences.js";

/**
 * Whom a join's offences count against: its account (`Player.playerId`, the session's and the
 * engine's notion: trusted when the server set it, declared otherwise) when it has one, else its
 * network address, not its session id as elsewhere (a session id is new at every join, so a cooldown
 * keyed on it would end with a rejoin). An address counts as the per-address limits count it
 * (`limitKey`: an IPv6 address by its /64, which one host can take fresh addresses from).
 */
export function offenderOf(playerId: string | undefined, address: string): string {
  return playerId !== undefined ? `player:${playerId}` : `address:${limitKey(address)}`;
}

/** The presence key of an account's record in `queue` (the account hashed: bounded, and no ids in key names). */
export function offenceKey(queue: string, account: string): string {
  return `mm:offences:${queue}:${createHash("sha256").update(account).digest("base64url").slice(0, 22)}`;
}

/** Offences of one queue room's players, judged against its queue's ledger. */
export class QueuePenalties implements OffenceJudge {
  /** Accounts of clients between `onAuth` and `onJoin`. */
  private readonly admitted = new WeakMap<Client, string>();
  /** Accounts of the players in the queue, by session id. */
  private readonly accounts = new Map<string, string>();

  constructor(
    private readonly queue: string,
    private readonly options: PenaltyOptions,
    private readonly ledger: OffenceLedger,
    /** Shared presence (Redis): records are mirrored there. Absent in memory. */
    private readonly presence?: Presence,
    private readonly onError: (message: string) => void = () => undefined,
  ) {}

  /**
   * At `onAuth`: throws `MatchmakerError("cooldown")` (the client's 429, saying when to retry) while
   * `account` cools down; otherwise remembers it for `joined`. With shared presence it reads the
   * account's record there first (a failure to read falls back to this process's ledger).
   */
  admit(client: Client, account: string, now: () => number): void | Promise<void> {
    this.check(account, now());
    this.admitted.set(client, account);
    if (!this.presence) return;
    return this.load(account, now).then(() => this.check(account, now()));
  }

  /**
   * {@link admit} for a join as the room's `onAuth` has it (its checked options, or their promise):
   * the join, once `offender(join)` is not cooling down. Otherwise it throws (or rejects with)
   * what `refused` makes of the `cooldown` error.
   */
  admitJoin<J>(
    client: Client,
    join: J | Promise<J>,
    offender: (join: J) => string,
    now: () => number,
    refused: (error: unknown) => unknown,
  ): J | Promise<J> {
    const admit = (j: J): J | Promise<J> => {
      let admitted: void | Promise<void>;
      try {
        admitted = this.admit(client, offender(j), now);
      } catch (error) {
        throw refused(error);
      }
      return admitted
        ? admitted.then(
            () => j,
            (error: unknown) => {
              throw refused(error);
            },
          )
        : j;
    };
    return join instanceof Promise ? join.then(admit) : admit(join);
  }

  /** At `onJoin`: the client is a player of the queue now. */
  joined(client: Client): void {
    const account = this.admitted.get(client);
    if (account !== undefined) this.accounts.set(client.sessionId, account);
    this.admitted.delete(client);
  }

  /** At `onLeave` (after the session saw the leave). */
  left(sessionId: string): void {
    this.accounts.delete(sessionId);
  }

  /** The queue's offence counts (they outlive this room). */
  get counts(): Readonly<OffenceCounts> {
    return this.ledger.counts;
  }

  offence(sessionId: string, kind: OffenceKind, now: number): PenaltyNotice | undefined {
    const account = this.accounts.get(sessionId);
    if (account === undefined) return undefined;
    const { judgement, record } = this.ledger.record(account, kind, now, this.options);
    this.store(account, record, now);
    return judgement.outcome === "forgiven" ? undefined : this.notice(kind, judgement);
  }

  private check(account: string, now: number): void {
    const left = this.ledger.cooldownLeft(account, now);
    if (left <= 0) return;
    this.ledger.refused();
    const record = this.ledger.get(account, now);
    const count = record?.offences.length ?? 0;
    throw new MatchmakerError(
      "cooldown",
      `cooldown: ${count} broken ${count === 1 ? "match" : "matches"} within ${duration(this.options.windowMs)}; you may join this queue again in ${secondsToWait(left)} s`,
    );
  }

  private async load(account: string, now: () => number): Promise<void> {
    let raw: unknown;
    try {
      raw = await this.presence!.get(offenceKey(this.queue, account));
    } catch (error) {
      this.onError(`could not read offences from presence: ${String(error)}`);
      return;
    }
    const stored = parseRecord(raw);
    if (!stored) return;
    const local = this.ledger.get(account, now());
    this.ledger.put(account, local ? mergeRecords(local, stored) : stored, now(), this.options);
  }

  private store(account: string, record: OffenceRecord, now: number): void {
    if (!this.presence) return;
    const ttlSeconds = Math.ceil((recordExpiresAt(record, this.options) - now) / 1000);
    if (ttlSeconds <= 0) return;
    Promise.resolve()
      .then(() => this.presence!.setex(offenceKey(this.queue, account), JSON.stringify(record), ttlSeconds))
      .catch((error: unknown) => this.onError(`could not write offences to presence: ${String(error)}`));
  }

  /** What the player is told with its `removed` or `requeued` message. */
  private notice(kind: OffenceKind, judgement: Exclude<Judgement, { outcome: "forgiven" }>): PenaltyNotice {
    const what = WHAT[kind];
    const window = duration(this.options.windowMs);
    let text: string;
    if (judgement.cooldownMs > 0) {
      text = `${what}: that is ${judgement.offences} broken matches within ${window}; you lost your place and may join this queue again in ${secondsToWait(judgement.cooldownMs)} s.`;
    } else {
      const where =
        kind === "seat_expired"
          ? "you lost your place and wait again at the back of the queue"
          : "you lost your place; join again to wait at the back of the queue";
      const next = judgement.offences + 1 - this.options.offencesBeforeCooldown;
      const warning =
        next > 0
          ? ` Another broken match within ${window} keeps you out for ${secondsToWait(this.options.cooldownMs)} s.`
          : "";
      text = `${what}: ${where}.${warning}`;
    }
    return { offences: judgement.offences, cooldownMs: judgement.cooldownMs, text };
  }
}

const WHAT: Record<OffenceKind, string> = {
  declined: "You declined the match",
  timeout: "You did not accept the match in time",
  seat_expired: "Your seat expired unused",
  gone: "You left the match before it started",
};

/** `10 min`, `90 s`. */
function duration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${secondsToWait(ms)} s`;
}
