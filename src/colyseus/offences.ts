/**
 * A cost for wrecking games: the rule and the ledger. A player who breaks a match others were
 * ready for (declines its ready check, lets it time out while connected, lets its seat expire
 * unused while connected to the queue) commits an offence, counted against its account (a trusted
 * or declared `playerId`, else its network address). Within a window, the first offences cost the
 * player only its place; each further one holds the account out of the queue for a cooldown that
 * doubles up to a cap. A ready check broken by a dropped connection or a leave is a "gone"
 * offence: the first ones in a window are forgiven (a connection drops now and then), the next
 * count like any other.
 *
 * The ledger lives as long as the queue's name, not its room: `processOffenceLedgers` keeps one per
 * queue name for this process (the room is disposed with its last client; the cooldown must not
 * go with it), bounded in accounts. Sharing it across processes is `penalties.ts`'s business.
 *
 * No Colyseus and no clock here: time is passed in (ms), so the unit tests run on a manual clock.
 */
import { parseJsonObject } from "../core/validation.js";
import { DEFAULTS } from "../options/fields.js";

/**
 * What broke the match: `declined` its ready check; let it time out while connected (`timeout`);
 * let its seat expire unused while connected to the queue (`seat_expired`); or was `gone` (its
 * connection dropped or it left while the match waited for it).
 */
export type OffenceKind = "declined" | "timeout" | "seat_expired" | "gone";

/** The queue option `penalties` with its defaults filled (durations in ms). */
export interface PenaltyOptions {
  /** An offence counts for this long. */
  readonly windowMs: number;
  /** Offences in a window that cost only the player's place; the next one starts a cooldown. */
  readonly offencesBeforeCooldown: number;
  /** The first cooldown; each further offence in the window doubles it. */
  readonly cooldownMs: number;
  /** The longest cooldown. */
  readonly maxCooldownMs: number;
  /** `gone` offences forgiven per window (a dropped connection is not griefing). */
  readonly forgivenDrops: number;
}

/** Defaults that no player who answers its prompts and takes its seats reaches (the queue option's). */
export const PENALTY_DEFAULTS: PenaltyOptions = DEFAULTS.penalties;

/** One account's offences in the current window. Plain data: it is stored as JSON in presence. */
export interface OffenceRecord {
  /** When the counted offences happened (ms), oldest first; at most {@link MAX_TRACKED}. */
  readonly offences: readonly number[];
  /** When the forgiven `gone` offences happened (ms), oldest first; at most {@link MAX_TRACKED}. */
  readonly forgiven: readonly number[];
  /** The account may not join before this time (ms; 0 for none). */
  readonly cooldownUntil: number;
}

/** What an offence costs: nothing (a forgiven drop), the place, or the place and a cooldown. */
export type Judgement =
  | { readonly outcome: "forgiven" }
  | {
      readonly outcome: "place" | "cooldown";
      /** Counted offences in the window, this one included. */
      readonly offences: number;
      /** Ms before the account may join again (0 for `place`). */
      readonly cooldownMs: number;
    };

/** Timestamps kept per record: more offences than this in a window only keep the cooldown at its cap. */
export const MAX_TRACKED = 32;

/**
 * The rule: `record` (undefined for an account without offences) after an offence of `kind` at
 * `now`, and what it costs. Pure.
 */
export function judge(
  record: OffenceRecord | undefined,
  kind: OffenceKind,
  now: number,
  options: PenaltyOptions,
): { record: OffenceRecord; judgement: Judgement } {
  const since = now - options.windowMs;
  const offences = recent(record?.offences, since);
  const forgiven = recent(record?.forgiven, since);
  const cooldownUntil = record?.cooldownUntil ?? 0;
  if (kind === "gone" && forgiven.length < options.forgivenDrops) {
    return {
      record: { offences, forgiven: bounded([...forgiven, now]), cooldownUntil },
      judgement: { outcome: "forgiven" },
    };
  }
  const counted = bounded([...offences, now]);
  const beyond = offences.length + 1 - options.offencesBeforeCooldown;
  if (beyond <= 0) {
    return {
      record: { offences: counted, forgiven, cooldownUntil },
      judgement: { outcome: "place", offences: offences.length + 1, cooldownMs: 0 },
    };
  }
  const cooldownMs = cooldownFor(beyond, options);
  return {
    record: { offences: counted, forgiven, cooldownUntil: Math.max(cooldownUntil, now + cooldownMs) },
    judgement: { outcome: "cooldown", offences: offences.length + 1, cooldownMs },
  };
}

/** The cooldown of the `n`-th offence past `offencesBeforeCooldown`: `cooldownMs` doubled `n − 1` times, at most `maxCooldownMs`. */
export function cooldownFor(n: number, options: Pick<PenaltyOptions, "cooldownMs" | "maxCooldownMs">): number {
  // 2^30 × any cooldown is past any cap: stop doubling there (no overflow to Infinity).
  return Math.min(options.maxCooldownMs, options.cooldownMs * 2 ** Math.min(Math.max(0, n - 1), 30));
}

/** When a record stops mattering: its cooldown is over and its last offence left the window. */
export function recordExpiresAt(record: OffenceRecord, options: Pick<PenaltyOptions, "windowMs">): number {
  const last = Math.max(record.offences.at(-1) ?? -Infinity, record.forgiven.at(-1) ?? -Infinity);
  return Math.max(record.cooldownUntil, last + options.windowMs);
}

/** Two views of one account's record (this process's and presence's): every offence either saw, the later cooldown. */
export function mergeRecords(a: OffenceRecord, b: OffenceRecord): OffenceRecord {
  return {
    offences: union(a.offences, b.offences),
    forgiven: union(a.forgiven, b.forgiven),
    cooldownUntil: Math.max(a.cooldownUntil, b.cooldownUntil),
  };
}

/** A record read back from storage, checked (anything malformed reads as no record). */
export function parseRecord(raw: unknown): OffenceRecord | undefined {
  if (typeof raw !== "string" || raw.length > 4096) return undefined;
  const value = parseJsonObject(raw);
  if (!value) return undefined;
  const { offences, forgiven, cooldownUntil } = value;
  const times = (list: unknown) =>
    Array.isArray(list) && list.every((t) => Number.isFinite(t))
      ? bounded([...(list as number[])].sort((x, y) => x - y))
      : undefined;
  const o = times(offences);
  const f = times(forgiven);
  if (!o || !f || !Number.isFinite(cooldownUntil)) return undefined;
  return { offences: o, forgiven: f, cooldownUntil: cooldownUntil as number };
}

/** How often the ledger's rule was applied, for the metrics (these outlive the queue room). */
export interface OffenceCounts {
  /** Offences counted (each cost a place, and maybe a cooldown). */
  offences: number;
  /** `gone` offences forgiven. */
  forgiven: number;
  /** Offences that started a cooldown. */
  cooldowns: number;
  /** Joins refused because the account was cooling down. */
  refusedJoins: number;
}

/** The most accounts one queue's ledger holds; past it, the least recently offending is forgotten. */
export const MAX_ACCOUNTS = 100_000;

/**
 * One queue's offences by account, bounded: records are kept in the order they last changed,
 * expired ones are dropped from the front as the ledger is used, and past `maxAccounts` the one
 * that changed longest ago is forgotten (it takes that many distinct offending accounts within one
 * window to forget one early).
 */
export class OffenceLedger {
  private readonly records = new Map<string, { record: OffenceRecord; expiresAt: number }>();
  readonly counts: OffenceCounts = { offences: 0, forgiven: 0, cooldowns: 0, refusedJoins: 0 };

  constructor(readonly maxAccounts = MAX_ACCOUNTS) {}

  /** Accounts with a record (some may have expired and not been swept yet). */
  get size(): number {
    return this.records.size;
  }

  /** The account's record, or undefined when it has none (or it expired). */
  get(account: string, now: number): OffenceRecord | undefined {
    const entry = this.records.get(account);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.record;
    this.records.delete(account);
    return undefined;
  }

  /** Ms before `account` may join again (0: it may). */
  cooldownLeft(account: string, now: number): number {
    return Math.max(0, (this.get(account, now)?.cooldownUntil ?? 0) - now);
  }

  /** Count a join refused for a cooldown. */
  refused(): void {
    this.counts.refusedJoins++;
  }

  /** An offence of `account`: the rule applied, the record kept; returns what it costs and the new record. */
  record(
    account: string,
    kind: OffenceKind,
    now: number,
    options: PenaltyOptions,
  ): { judgement: Judgement; record: OffenceRecord } {
    const result = judge(this.get(account, now), kind, now, options);
    const { judgement } = result;
    if (judgement.outcome === "forgiven") this.counts.forgiven++;
    else this.counts.offences++;
    if (judgement.outcome === "cooldown") this.counts.cooldowns++;
    this.put(account, result.record, now, options);
    return result;
  }

  /** Keep `record` as the account's (e.g. read back from presence). */
  put(account: string, record: OffenceRecord, now: number, options: Pick<PenaltyOptions, "windowMs">): void {
    this.records.delete(account); // re-inserted last: the map stays in order of change
    const expiresAt = recordExpiresAt(record, options);
    if (expiresAt > now) this.records.set(account, { record, expiresAt });
    this.sweep(now);
  }

  /** Drop expired records from the front (a few per call), then the oldest past the bound. */
  private sweep(now: number): void {
    let checked = 0;
    for (const [account, entry] of this.records) {
      if (checked++ >= SWEEP_PER_CALL || entry.expiresAt > now) break;
      this.records.delete(account);
    }
    while (this.records.size > this.maxAccounts) this.records.delete(this.records.keys().next().value!);
  }
}

/** Expired records dropped per use of the ledger, at most: the work stays O(1) per offence. */
const SWEEP_PER_CALL = 8;

/** The ledgers of every queue of this process, by queue name: they outlive the queue rooms. */
export class OffenceLedgers {
  private readonly byQueue = new Map<string, OffenceLedger>();

  /** The ledger of `queue` (created empty on first use). */
  of(queue: string): OffenceLedger {
    let ledger = this.byQueue.get(queue);
    if (!ledger) {
      ledger = new OffenceLedger();
      this.byQueue.set(queue, ledger);
    }
    return ledger;
  }

  /** Forget a queue's ledger (tests: as if another process served the queue). */
  forget(queue: string): void {
    this.byQueue.delete(queue);
  }
}

/** This process's offence ledgers: every queue room of a queue name shares its ledger. */
export const processOffenceLedgers = new OffenceLedgers();

function recent(times: readonly number[] | undefined, since: number): number[] {
  return (times ?? []).filter((t) => t > since);
}

function bounded(times: number[]): number[] {
  return times.length > MAX_TRACKED ? times.slice(-MAX_TRACKED) : times;
}

function union(a: readonly number[], b: readonly number[]): number[] {
  return bounded([...new Set([...a, ...b])].sort((x, y) => x - y));
}
