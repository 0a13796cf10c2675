/**
 * A rating store in this process's memory: for tests and the simulator, and for a server that does
 * not need ratings to outlive it. Each call runs to its end without awaiting, so `settle` is atomic.
 */
import type { RatingBin, RatingStore, SettleOutcome } from "./store.js";
import type { OpenMatch, SettledMatch, StoredRating } from "./types.js";

export class MemoryRatingStore implements RatingStore {
  private season: string | undefined;
  private readonly seasons = new Map<string, Map<string, StoredRating>>();
  private readonly open = new Map<string, { match: OpenMatch; expiresAt: number }>();
  private readonly settled = new Map<string, SettledMatch>();
  private readonly histories = new Map<string, SettledMatch[]>();

  constructor(private readonly now: () => number = Date.now) {}

  currentSeason(): Promise<string | undefined> {
    return Promise.resolve(this.season);
  }

  startSeason(season: string): Promise<void> {
    this.season = season;
    return Promise.resolve();
  }

  ratings(season: string, playerIds: readonly string[]): Promise<Map<string, StoredRating>> {
    const table = this.seasons.get(season);
    const found = new Map<string, StoredRating>();
    for (const id of playerIds) {
      const rating = table?.get(id);
      if (rating) found.set(id, rating);
    }
    return Promise.resolve(found);
  }

  openMatch(match: OpenMatch, expiresAt: number): Promise<void> {
    this.purge();
    if (!this.settled.has(match.matchId)) this.open.set(match.matchId, { match, expiresAt });
    return Promise.resolve();
  }

  settle(
    matchId: string,
    compute: (match: OpenMatch, current: ReadonlyMap<string, StoredRating>) => SettledMatch,
  ): Promise<SettleOutcome> {
    const done = this.settled.get(matchId);
    if (done) return Promise.resolve({ status: "already", match: done });
    const entry = this.open.get(matchId);
    if (!entry || entry.expiresAt <= this.now()) return Promise.resolve({ status: "unknown" });
    const { match } = entry;
    const table = this.seasons.get(match.season) ?? new Map<string, StoredRating>();
    const current = new Map<string, StoredRating>();
    for (const seat of match.teams.flat()) {
      const rating = seat.playerId !== undefined ? table.get(seat.playerId) : undefined;
      if (rating && seat.playerId !== undefined) current.set(seat.playerId, rating);
    }
    let record: SettledMatch;
    try {
      record = compute(match, current);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // Nothing above wrote; from here on nothing can throw.
    for (const change of record.changes) {
      const games = (current.get(change.playerId)?.games ?? 0) + 1;
      table.set(change.playerId, { ...change.after, games, updatedAt: record.settledAt });
      const key = historyKey(match.season, change.playerId);
      const list = this.histories.get(key) ?? [];
      list.unshift(record);
      this.histories.set(key, list);
    }
    this.seasons.set(match.season, table);
    this.settled.set(matchId, record);
    this.open.delete(matchId);
    return Promise.resolve({ status: "applied", match: record });
  }

  history(season: string, playerId: string, limit: number): Promise<SettledMatch[]> {
    return Promise.resolve((this.histories.get(historyKey(season, playerId)) ?? []).slice(0, limit));
  }

  distribution(season: string, width: number): Promise<RatingBin[]> {
    const counts = new Map<number, number>();
    for (const rating of this.seasons.get(season)?.values() ?? []) {
      const from = Math.floor(rating.mu / width) * width;
      counts.set(from, (counts.get(from) ?? 0) + 1);
    }
    return Promise.resolve([...counts].sort((a, b) => a[0] - b[0]).map(([from, count]) => ({ from, count })));
  }

  /** Forget open matches whose time to report ran out (opened in order, so the oldest come first). */
  private purge(): void {
    const now = this.now();
    for (const [id, entry] of this.open) {
      if (entry.expiresAt > now) break;
      this.open.delete(id);
    }
  }
}

function historyKey(season: string, playerId: string): string {
  return `${season}\u0000${playerId}`;
}
