/**
 * The queue made durable in presence (Redis when scaled out), wired to a queue room through a
 * narrow host: one authority per queue (a renewed {@link QueueLease}), the waiting places in a
 * {@link TicketStore}, a resume token per player, and a handover when the room stops or loses its
 * lease. The room calls it at create, auth, join, leave and shutdown; everything else runs on its
 * own timers (lease renewal every second, batched writes every `flushMs`).
 *
 * - Authority: a room that does not get the lease refuses every join with the retryable
 *   {@link RETRY_LATER} error and locks itself, so joins find the authority. After Redis lost its
 *   data, the authority's next renewal claims the lease again, restores its room listing and
 *   rewrites every place it holds (once, O(n), on that rare event only).
 * - Places: every ticket entering matching writes one record per player (O(party size)); a seat,
 *   a leave or a removal deletes it. A ticket in a ready check keeps its record, so it comes back
 *   waiting at its original place.
 * - Resume: a join with `resume: token` whose record another room wrote gets that place back
 *   (original enqueue time, party as a party) once every player of the ticket is back, or after
 *   `graceMs` with those who came. Records nobody comes back for are deleted after `graceMs`.
 *   One account, one place holds across it: a resume of an account already in the queue is refused
 *   (or, with `duplicateAccount: "replace"`, the session there makes way), and while a place comes
 *   back its account is held for it, so a fresh join of the account is refused meanwhile.
 * - Handover: on a graceful stop the room writes what is pending, releases the lease and tells
 *   every player `handover` before closing; the players rejoin (any process) with their token.
 */
import { CloseCode, LocalPresence, type Presence } from "@colyseus/core";
import { MatchmakerError } from "../../core/errors.js";
import { toClientError } from "../client-error.js";
import type { Player, Ticket } from "../../core/types.js";
import type { QueueSession } from "../session.js";
import { QueueLease } from "./lease.js";
import { newResumeToken, resumeKey, splitResume, type ResumeMessage } from "./resume-token.js";
import { TicketStore, type StoredPlace } from "./ticket-store.js";
import { retryLater } from "./unavailable.js";

/** What the durable queue needs from its room. */
export interface DurableHost {
  readonly roomId: string;
  readonly roomName: string;
  readonly presence: Presence;
  readonly session: QueueSession;
  now(): number;
  send(sessionId: string, type: string, payload: unknown): void;
  /** Run the engine (after restoring tickets). */
  runEngine(): void;
  /** A repeating timer on the room's clock; returns its cancel. */
  every(ms: number, fn: () => void): () => void;
  /** Whether a room (by id) is still listed: a holder whose listing is gone is dead. */
  isListed(roomId: string): Promise<boolean>;
  /** The room's listing is missing after Redis lost its data: write it again. */
  relist(): Promise<void>;
  /** Lock the room so that joins no longer find it (a room that is not the authority). */
  lock(): void;
  /** Close every client connection with `code` (the room then disposes). */
  closeAll(code: number): Promise<unknown>;
}

export interface DurableOptions {
  /** How long a lost place is kept for its players to come back (ms, default 60,000). */
  readonly graceMs?: number;
  /** Lease lifetime after its last renewal (s, default 5); renewed every second. */
  readonly leaseSeconds?: number;
  /** Batched writes to presence at most this often (ms, default 200). */
  readonly flushMs?: number;
  /** Most writes per flush (default 500). */
  readonly maxPerFlush?: number;
  /** How long a room that got the lease waits for a live authority to answer its announcement (ms, default 300). */
  readonly announceMs?: number;
}

/** The `handover` message: the queue is stopping or moving; rejoin with `resume` (any process). */
export interface HandoverMessage {
  readonly reason: "shutdown" | "moved";
  /** Rejoin after about this long (ms). */
  readonly retryInMs: number;
}

/** The `resumed` message: the place is back; `waitingFor` party members still to come back. */
export interface ResumedMessage {
  readonly enqueuedAt: number;
  readonly waitingFor: number;
}

interface Arrival {
  readonly sessionId: string;
  readonly key: string;
  readonly place: StoredPlace;
}

/** Players of one lost ticket coming back. */
interface Gathering {
  readonly arrivals: Arrival[];
  readonly deadline: number;
}

const RENEW_MS = 1000;
/** The longest a stop waits for presence, per step. */
const STOP_WAIT_MS = 3000;

/** `promise` settled, or `ms` passed (whatever it rejects with is ignored). */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** A queue's durability in presence. Create it with {@link startDurability}. */
export class DurableQueue {
  readonly lease: QueueLease;
  readonly store: TicketStore;
  readonly graceMs: number;
  /** `follower`: another room holds the lease; `stopping`: handing over. */
  private role: "authority" | "follower" | "stopping" = "follower";
  private readonly tokenOf = new Map<string, { token: string; key: string }>();
  private readonly sessionOfKey = new Map<string, string>();
  private readonly resuming = new Map<string, Arrival & { token: string }>();
  private readonly resumingKeys = new Set<string>();
  private readonly gatherings = new Map<string, Gathering>();
  /** Records of lost rooms nobody came back for yet, by resume key: dropped at the deadline. */
  private readonly orphans = new Map<string, number>();
  private orphansLoadedAt = -Infinity;
  private readonly timers: Array<() => void> = [];
  private renewing = false;
  private flushing = false;
  private readonly announceMs: number;
  /** While announcing a claimed lease: settles true when a live authority answers. */
  private answer?: (answered: boolean) => void;

  constructor(
    private readonly host: DurableHost,
    options: DurableOptions = {},
  ) {
    this.graceMs = options.graceMs ?? 60_000;
    this.announceMs = options.announceMs ?? 300;
    this.lease = new QueueLease(host.presence, host.roomName, host.roomId, {
      ttlSeconds: options.leaseSeconds ?? 5,
      ownerAlive: (owner) => host.isListed(owner),
    });
    this.store = new TicketStore(host.presence, host.roomName, {
      ...(options.maxPerFlush !== undefined ? { maxPerFlush: options.maxPerFlush } : {}),
      ttlSeconds: Math.max(60, Math.ceil((this.graceMs * 2) / 1000)),
    });
    this.timers.push(host.every(options.flushMs ?? 200, () => void this.flush()));
    this.timers.push(host.every(RENEW_MS, () => void this.renew()));
  }

  /** Whether this room is its queue's authority (holds the lease). */
  get isAuthority(): boolean {
    return this.role === "authority";
  }

  /**
   * Claim the lease at creation: the authority loads the lost places to expire; anyone else locks
   * itself. A room that gets the lease announces it on the queue's channel and waits
   * `announceMs`: a live authority whose lease Redis lost (a restart) answers by re-asserting it,
   * and the newcomer steps back, so the players keep the room they wait in.
   */
  async start(): Promise<void> {
    await Promise.resolve(this.host.presence.subscribe(this.channel, (m: unknown) => this.onAnnouncement(m))).catch(
      () => undefined,
    );
    // Redis unreachable: serve (nobody else can claim either); the next renewal settles it.
    let held = await this.lease.claim().then(
      (outcome) => outcome.held,
      () => true,
    );
    if (held && (await this.anotherAuthorityAnswers())) held = false;
    if (held) {
      this.role = "authority";
      await this.loadOrphans();
    } else {
      this.role = "follower";
      setImmediate(() => this.host.lock());
    }
  }

  /**
   * At `onAuth`: refuse for now (retryable) when this room is not the authority; split off and
   * check a resume token and look its place up. `check(rest)` runs the queue's own checks on the
   * other options: for a resume, `checkOptions` only (the party code it joined with is gone).
   */
  async authorize<T>(
    sessionId: string,
    options: unknown,
    check: (rest: unknown) => T,
    checkOptions: (rest: unknown) => T,
  ): Promise<T> {
    if (this.role !== "authority") throw retryLater("queue_moving", RENEW_MS);
    const { token, rest } = asJoinError(() => splitResume(options));
    if (token === undefined) return check(rest);
    const result = checkOptions(rest);
    const key = resumeKey(token);
    if (this.sessionOfKey.has(key) || this.resumingKeys.has(key))
      throw refused("resume: this place is already back in the queue");
    let place: StoredPlace | undefined;
    try {
      place = await this.store.get(key);
    } catch {
      throw retryLater("redis_unreachable", 2000);
    }
    if (!place) throw refused("resume: no place to resume (it was matched or expired); join without `resume`");
    const account = place.player.playerId;
    const held = account === undefined ? undefined : this.host.session.accountRefusal(account, sessionId);
    if (held) throw toClientError(held);
    this.resuming.set(sessionId, { sessionId, key, place, token });
    this.resumingKeys.add(key);
    return result;
  }

  /** At `onJoin`: a resume gets its place back; any other join runs `join` and gets a resume token. */
  join(sessionId: string, join: () => void): void {
    const resume = this.resuming.get(sessionId);
    if (!resume) {
      // The token first: the join writes the player's place under it.
      const token = newResumeToken();
      const key = resumeKey(token);
      this.own(sessionId, token, key);
      try {
        join();
      } catch (error) {
        this.tokenOf.delete(sessionId);
        this.sessionOfKey.delete(key);
        throw error;
      }
      this.host.send(sessionId, "resume", { token, graceMs: this.graceMs } satisfies ResumeMessage);
      return;
    }
    this.forgetAuthorization(sessionId);
    // The account may have joined meanwhile: held for this place from here on, or refused.
    const account = resume.place.player.playerId;
    if (account !== undefined) asJoinError(() => this.host.session.claimAccount(account, sessionId, this.host.now()));
    this.own(sessionId, resume.token, resume.key);
    this.orphans.delete(resume.key);
    this.host.send(sessionId, "resume", { token: resume.token, graceMs: this.graceMs } satisfies ResumeMessage);
    const ticketId = resume.place.ticket;
    const gathering = this.gatherings.get(ticketId) ?? { arrivals: [], deadline: this.host.now() + this.graceMs };
    this.gatherings.set(ticketId, gathering);
    gathering.arrivals.push(resume);
    const waitingFor = resume.place.size - gathering.arrivals.length;
    for (const a of gathering.arrivals)
      this.host.send(a.sessionId, "resumed", {
        enqueuedAt: resume.place.enqueuedAt,
        waitingFor,
      } satisfies ResumedMessage);
    if (waitingFor <= 0) this.restore(ticketId, true);
    // A record written by a room this one did not know at its start: look for others to expire.
    if (resume.place.room !== this.host.roomId && this.host.now() - this.orphansLoadedAt > 5000)
      void this.loadOrphans();
  }

  /** The queue's channel: rooms announce a claimed lease, the live authority answers. */
  private get channel(): string {
    return `${this.lease.key}:announce`;
  }

  /** Announce a claimed lease; true when a live authority re-asserted it within `announceMs`. */
  private async anotherAuthorityAnswers(): Promise<boolean> {
    const answered = new Promise<boolean>((resolve) => {
      this.answer = resolve;
      setTimeout(() => resolve(false), this.announceMs);
    });
    try {
      await this.host.presence.publish(this.channel, { claimed: this.host.roomId });
    } catch {
      this.answer = undefined;
      return false;
    }
    const result = await answered;
    this.answer = undefined;
    return result;
  }

  private onAnnouncement(message: unknown): void {
    if (typeof message !== "object" || message === null) return;
    const { claimed, reasserted } = message as { claimed?: unknown; reasserted?: unknown };
    if (typeof reasserted === "string" && reasserted !== this.host.roomId) this.answer?.(true);
    if (typeof claimed === "string" && claimed !== this.host.roomId && this.role === "authority")
      void this.reassertNow();
  }

  /** Another room claimed this queue's lease (Redis lost it): take it back, list this room again, say so. */
  private async reassertNow(): Promise<void> {
    try {
      await this.lease.assert();
      await this.host.presence.publish(this.channel, { reasserted: this.host.roomId });
      await this.reassert();
    } catch {
      // Redis unreachable again: the renewal settles it
    }
  }

  /** The stored player of the place a resume `authorize` accepted for `sessionId` (until it joins); undefined for any other join. */
  resumingPlayer(sessionId: string): StoredPlace["player"] | undefined {
    return this.resuming.get(sessionId)?.place.player;
  }

  /** At `onAuth` failure or when a client leaves before `onJoin`. */
  forgetAuthorization(sessionId: string): void {
    const resume = this.resuming.get(sessionId);
    if (!resume) return;
    this.resuming.delete(sessionId);
    this.resumingKeys.delete(resume.key);
  }

  /** A ticket entered matching (a join, a re-queue, a restore): its players' places are written. */
  waiting(ticket: Ticket): void {
    const party = this.host.session.parties.get(ticket.id);
    for (const p of ticket.players) {
      const token = this.tokenOf.get(p.sessionId);
      if (!token) continue;
      this.store.put(
        token.key,
        this.placeOf(ticket, p, party ? { size: party.size, leader: party.leader } : undefined),
      );
    }
  }

  /** A player is gone from the queue (seated, left, removed): its place is deleted. */
  gone(sessionId: string): void {
    this.forgetAuthorization(sessionId);
    this.host.session.releaseAccount(sessionId);
    const token = this.tokenOf.get(sessionId);
    if (!token) {
      this.leaveGathering(sessionId);
      return;
    }
    this.tokenOf.delete(sessionId);
    if (this.role === "stopping") return; // leaving because of the handover: the place stays for the rejoin
    this.sessionOfKey.delete(token.key);
    this.store.forget(token.key);
    this.leaveGathering(sessionId);
  }

  /**
   * Graceful stop (`onBeforeShutdown`): write every pending place, give the lease up, tell every
   * player `handover` and close. Resolves once the connections are closed.
   */
  async handover(reason: HandoverMessage["reason"] = "shutdown"): Promise<void> {
    if (this.role === "stopping") return;
    const wasAuthority = this.role === "authority";
    this.role = "stopping";
    for (const cancel of this.timers.splice(0)) cancel();
    if (wasAuthority) {
      // Every place written again (O(n), once at stop): Redis may have lost them unnoticed. Bounded:
      // with Redis unreachable, ioredis would hold each call for seconds, and the stop must go on.
      this.rewriteAll();
      await within(this.flushAll(), STOP_WAIT_MS);
      if (reason === "shutdown") await within(this.lease.release(), STOP_WAIT_MS);
    }
    for (const sessionId of this.tokenOf.keys())
      this.host.send(sessionId, "handover", { reason, retryInMs: 500 } satisfies HandoverMessage);
    await this.host.closeAll(CloseCode.SERVER_SHUTDOWN);
  }

  /** The room is disposed: stop the timers (and give the lease up if still held). */
  stop(): void {
    for (const cancel of this.timers.splice(0)) cancel();
    if (this.role === "authority" && this.tokenOf.size === 0) void this.lease.release().catch(() => undefined);
    this.role = "stopping";
  }

  /** Send pending writes now (tests, shutdown); resolves once presence answered. */
  async flushAll(): Promise<void> {
    for (let rounds = 0; this.store.pending > 0 && rounds < 1000; rounds++) {
      if ((await this.store.flush()) === 0) return; // presence unreachable: nothing more to do now
    }
  }

  private async flush(): Promise<void> {
    if (this.flushing || this.store.pending === 0) return;
    this.flushing = true;
    try {
      await this.store.flush();
    } finally {
      this.flushing = false;
    }
  }

  /** Every second: renew the lease (re-assert it after a Redis data loss), expire lost places. */
  private async renew(): Promise<void> {
    if (this.renewing || this.role === "stopping") return;
    this.renewing = true;
    try {
      const now = this.host.now();
      this.expireGatherings(now);
      if (this.role !== "authority") return;
      let outcome;
      try {
        outcome = await this.lease.claim();
      } catch {
        return; // Redis unreachable: keep serving the players here; renew at the next beat
      }
      if (!outcome.held) {
        // Another room took the queue (it claimed the lease while Redis had lost it): move there.
        await this.handover("moved");
        return;
      }
      if (outcome.reasserted) await this.reassert();
      await this.expireOrphans(now);
    } finally {
      this.renewing = false;
    }
  }

  /** Redis lost its data: list this room again and rewrite every place it holds. */
  private async reassert(): Promise<void> {
    await this.host.relist().catch(() => undefined);
    this.rewriteAll();
  }

  /** Mark every place this room holds to be written: waiting tickets and tickets in a ready check. */
  private rewriteAll(): void {
    const session = this.host.session;
    for (const ticket of session.matchmaker.waiting()) this.waiting(ticket);
    for (const pending of session.pending.all()) for (const t of pending.match.tickets) this.waiting(t);
  }

  private restore(ticketId: string, complete: boolean): void {
    const gathering = this.gatherings.get(ticketId);
    this.gatherings.delete(ticketId);
    if (!gathering || gathering.arrivals.length === 0) return;
    const arrivals = [...gathering.arrivals].sort(
      (a, b) => Number(b.place.party?.leader) - Number(a.place.party?.leader),
    );
    const first = arrivals[0]!.place;
    const ticket: Ticket = {
      id: first.party ? ticketId : arrivals[0]!.sessionId,
      players: arrivals.map((a) => ({ sessionId: a.sessionId, ...a.place.player })),
      enqueuedAt: first.enqueuedAt,
      ...(first.side ? { side: first.side } : {}),
      ...(first.zones ? { zones: first.zones } : {}),
    };
    try {
      this.host.session.restore(
        ticket,
        first.party ? { size: first.party.size, complete } : undefined,
        this.host.now(),
      );
    } catch {
      // Cannot happen for a well-formed record; the players are told and their places dropped.
      for (const a of arrivals) {
        this.host.send(a.sessionId, "removed", { reason: "error" });
        this.gone(a.sessionId);
      }
      return;
    }
    this.host.runEngine();
  }

  private expireGatherings(now: number): void {
    for (const [ticketId, g] of this.gatherings) if (g.deadline <= now) this.restore(ticketId, false);
  }

  private leaveGathering(sessionId: string): void {
    for (const [ticketId, g] of this.gatherings) {
      const i = g.arrivals.findIndex((a) => a.sessionId === sessionId);
      if (i < 0) continue;
      g.arrivals.splice(i, 1);
      if (g.arrivals.length === 0) this.gatherings.delete(ticketId);
      return;
    }
  }

  /** Records another room wrote (a lost room's places): deleted `graceMs` from now unless claimed. */
  private async loadOrphans(): Promise<void> {
    this.orphansLoadedAt = this.host.now();
    let places: Map<string, StoredPlace>;
    try {
      places = await this.store.all();
    } catch {
      return;
    }
    const deadline = this.host.now() + this.graceMs;
    for (const [key, place] of places) {
      if (place.room === this.host.roomId || this.sessionOfKey.has(key) || this.orphans.has(key)) continue;
      this.orphans.set(key, deadline);
    }
  }

  private async expireOrphans(now: number): Promise<void> {
    const due: string[] = [];
    for (const [key, deadline] of this.orphans) if (deadline <= now) due.push(key);
    if (due.length === 0) return;
    for (const key of due) this.orphans.delete(key);
    await this.store.drop(due).catch(() => undefined);
  }

  private own(sessionId: string, token: string, key: string): void {
    this.tokenOf.set(sessionId, { token, key });
    this.sessionOfKey.set(key, sessionId);
  }

  private placeOf(ticket: Ticket, player: Player, party: { size: number; leader: string } | undefined): StoredPlace {
    return {
      v: 1,
      room: this.host.roomId,
      ticket: ticket.id,
      size: ticket.players.length,
      enqueuedAt: ticket.enqueuedAt,
      ...(ticket.side ? { side: ticket.side } : {}),
      ...(ticket.zones ? { zones: ticket.zones } : {}),
      ...(party ? { party: { size: party.size, leader: party.leader === player.sessionId } } : {}),
      player: {
        rating: player.rating,
        ...(player.uncertainty !== undefined ? { uncertainty: player.uncertainty } : {}),
        ...(player.roles ? { roles: player.roles } : {}),
        ...(player.playerId !== undefined ? { playerId: player.playerId } : {}),
        ...(player.criteria ? { criteria: player.criteria } : {}),
      },
    };
  }
}

/**
 * Whether a room's presence is shared between processes (Redis): only then is the queue made
 * durable. The in-memory default (`LocalPresence`, one process) stays as it is: nothing to
 * configure, and nothing survives the process.
 */
export function isSharedPresence(presence: Presence | undefined): boolean {
  return presence !== undefined && !(presence instanceof LocalPresence);
}

/** The queue's durability for a room on shared presence, started (lease claimed); undefined in memory. */
export async function startDurability(host: DurableHost, options?: DurableOptions): Promise<DurableQueue | undefined> {
  if (!isSharedPresence(host.presence)) return undefined;
  const durable = new DurableQueue(host, options);
  await durable.start();
  return durable;
}

/** A refused resume, as the client's 525 naming the field. */
function refused(message: string): unknown {
  return toClientError(new MatchmakerError("join_refused", message, "resume"));
}

function asJoinError<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw toClientError(error);
  }
}
