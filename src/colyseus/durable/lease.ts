/**
 * One authority per queue: the queue room holds a lease on its queue name in presence (Redis
 * when scaled out), renewed while it lives. The lease is a small hash `mm:lease:<queue>`:
 * `owner` (the holder's room id) and `claims` (an atomic counter, so that of two rooms claiming
 * a free lease at once exactly one gets it). It expires `ttlSeconds` after its last renewal, so
 * a holder that died frees it by itself; a holder whose room listing is gone (its process was
 * found dead) can be taken over at once. After Redis lost its data, the live holder's next
 * renewal finds no lease and claims it again (`reasserted`), before anyone else can.
 */
import type { Presence } from "@colyseus/core";

/** The presence calls a lease needs (Redis or memory). */
export type LeasePresence = Pick<Presence, "hget" | "hset" | "hincrby" | "expire" | "del">;

/** The outcome of a claim or renewal. */
export type LeaseOutcome =
  /** This holder has the lease; `reasserted`: it had held it, lost it to a Redis data loss, and has it again. */
  | { readonly held: true; readonly reasserted: boolean }
  /** Another room holds it (`owner`), or another claim of a free lease is under way (no owner yet). */
  | { readonly held: false; readonly owner: string | undefined };

/** The presence key of a queue's lease. */
export function leaseKey(queue: string): string {
  return `mm:lease:${queue}`;
}

export interface QueueLeaseOptions {
  /** Seconds the lease lives after its last renewal (default 5); renew well within it. */
  readonly ttlSeconds?: number;
  /** Whether the room that holds the lease is still alive (default: assume it is). */
  readonly ownerAlive?: (owner: string) => Promise<boolean>;
}

/** A queue room's lease on its queue name. */
export class QueueLease {
  readonly key: string;
  readonly ttlSeconds: number;
  private readonly ownerAlive: (owner: string) => Promise<boolean>;
  /** Whether the last claim found this holder owning the lease. */
  private holding = false;

  constructor(
    private readonly presence: LeasePresence,
    queue: string,
    readonly holder: string,
    options: QueueLeaseOptions = {},
  ) {
    this.key = leaseKey(queue);
    this.ttlSeconds = options.ttlSeconds ?? 5;
    this.ownerAlive = options.ownerAlive ?? (async () => true);
  }

  /** Whether this holder owned the lease at the last claim. */
  get held(): boolean {
    return this.holding;
  }

  /**
   * Claim the lease, or renew it when held. Rejects only when presence does (Redis unreachable):
   * the caller then keeps its previous standing until presence answers again.
   */
  async claim(): Promise<LeaseOutcome> {
    const owner = await this.presence.hget(this.key, "owner");
    if (owner === this.holder) {
      await this.presence.expire(this.key, this.ttlSeconds);
      return this.won(false);
    }
    if (owner) {
      if (await this.ownerAlive(owner)) return this.lost(owner);
      // The holder's room is gone (its process was found dead): take the lease over now rather
      // than after its expiry. Two rooms doing so at once both write; the last write wins and the
      // other finds out at its next renewal.
      await this.presence.hset(this.key, "owner", this.holder);
      await this.presence.expire(this.key, this.ttlSeconds);
      return this.won(false);
    }
    const wasHolding = this.holding;
    const claims = await this.presence.hincrby(this.key, "claims", 1);
    if (claims === 1) {
      await this.presence.hset(this.key, "owner", this.holder);
      await this.presence.expire(this.key, this.ttlSeconds);
      return this.won(wasHolding);
    }
    // A claimer that died between counting and writing its name must not block the lease forever:
    // the first contender gives the key an expiry (later ones do not extend it).
    if (claims === 2) await this.presence.expire(this.key, this.ttlSeconds);
    return this.lost(undefined);
  }

  /**
   * Take the lease whoever has it: the live authority does so when a room that just claimed a
   * lease Redis had lost announces itself (see `DurableQueue`), since the players wait here.
   */
  async assert(): Promise<void> {
    await this.presence.hset(this.key, "owner", this.holder);
    await this.presence.expire(this.key, this.ttlSeconds);
    this.holding = true;
  }

  /** Give the lease up (graceful stop), so a successor can claim it at once. */
  async release(): Promise<void> {
    const owner = await this.presence.hget(this.key, "owner");
    this.holding = false;
    if (owner === this.holder) await this.presence.del(this.key);
  }

  private won(reasserted: boolean): LeaseOutcome {
    this.holding = true;
    return { held: true, reasserted };
  }

  private lost(owner: string | undefined): LeaseOutcome {
    this.holding = false;
    return { held: false, owner };
  }
}
