/**
 * Matches between the engine forming them and their game room: the ready check (every human
 * player must accept within a timeout) and the game room's creation. Pure bookkeeping with the
 * time passed in; the queue session decides what happens on each outcome.
 */
import type { Match } from "../core/types.js";

/** The queue option `readyCheck`. */
export interface ReadyCheckOptions {
  /** How long players have to `accept` a found match (ms). */
  readonly timeoutMs: number;
}

/** The `match_found` message: accept with `accept`, refuse with `decline`. */
export interface MatchFoundMessage {
  readonly matchId: string;
  /** Time left to accept (ms). */
  readonly timeoutMs: number;
  /** Human players in the match (all of them must accept). */
  readonly players: number;
}

/**
 * A match that has no game room yet:
 * - `ready-check`: waiting for every human to accept (and, for players who dropped, to be back);
 * - `spawning`: everyone accepted; the game room is being created.
 */
export interface PendingMatch {
  readonly match: Match;
  /** Ids of the match's human players. */
  readonly humans: readonly string[];
  stage: "ready-check" | "spawning";
  readonly accepted: Set<string>;
  /** When unaccepted players time out (absent: no ready check). */
  readonly deadline?: number;
  /** Players who left while the game room was being created. */
  readonly gone: Set<string>;
}

/** All pending matches of one queue, indexed by match and player. */
export class PendingMatches {
  private readonly byId = new Map<string, PendingMatch>();
  private readonly byPlayer = new Map<string, PendingMatch>();

  /**
   * Track a newly formed match. With a `deadline` every human must accept before it; without
   * one (no ready check) everyone counts as having accepted.
   */
  open(match: Match, deadline: number | undefined): PendingMatch {
    const humans = match.teams.flatMap((t) => t.players.filter((p) => !p.bot).map((p) => p.sessionId));
    const pending: PendingMatch = {
      match,
      humans,
      stage: "ready-check",
      accepted: new Set(deadline === undefined ? humans : []),
      ...(deadline !== undefined ? { deadline } : {}),
      gone: new Set(),
    };
    for (const id of humans) {
      if (this.byPlayer.has(id)) throw new Error(`invariant broken: player "${id}" is already in a pending match`);
    }
    this.byId.set(match.id, pending);
    for (const id of humans) this.byPlayer.set(id, pending);
    return pending;
  }

  get(matchId: string): PendingMatch | undefined {
    return this.byId.get(matchId);
  }

  /** The pending match a player is in. */
  of(playerId: string): PendingMatch | undefined {
    return this.byPlayer.get(playerId);
  }

  /** Record an accept; returns the match when the player was in a ready check. */
  accept(playerId: string): PendingMatch | undefined {
    const pending = this.byPlayer.get(playerId);
    if (!pending || pending.stage !== "ready-check") return undefined;
    pending.accepted.add(playerId);
    return pending;
  }

  allAccepted(pending: PendingMatch): boolean {
    return pending.accepted.size === pending.humans.length;
  }

  /** Humans who have not accepted yet. */
  unaccepted(pending: PendingMatch): string[] {
    return pending.humans.filter((id) => !pending.accepted.has(id));
  }

  /** Ready checks whose deadline has passed at `now`. */
  expired(now: number): PendingMatch[] {
    const out: PendingMatch[] = [];
    for (const p of this.byId.values())
      if (p.stage === "ready-check" && p.deadline !== undefined && p.deadline <= now) out.push(p);
    return out;
  }

  /** The earliest ready-check deadline, for the driver's wake-up. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const p of this.byId.values()) {
      if (p.stage === "ready-check" && p.deadline !== undefined && (next === undefined || p.deadline < next))
        next = p.deadline;
    }
    return next;
  }

  /** Stop tracking a match (it got its game room, or it fell through). */
  close(matchId: string): PendingMatch | undefined {
    const pending = this.byId.get(matchId);
    if (!pending) return undefined;
    this.byId.delete(matchId);
    for (const id of pending.humans) if (this.byPlayer.get(id) === pending) this.byPlayer.delete(id);
    return pending;
  }

  /** Every pending match, for inspection. */
  all(): IterableIterator<PendingMatch> {
    return this.byId.values();
  }
}
