/**
 * A rating store over the game's own PostgreSQL, with the `pg` package: the example of
 * docs/rating-stores.md, which shows this file from the schema to the end. The contract tests
 * (test/unit/rating-stores.test.ts) run it when PostgreSQL answers.
 */
import type { Pool, PoolClient } from "pg";
import type { OpenMatch, RatingBin, RatingStore, SettledMatch, SettleOutcome, StoredRating } from "../src/index.js";

export const RATINGS_SCHEMA = `
CREATE TABLE IF NOT EXISTS rating_season (id INT PRIMARY KEY CHECK (id = 1), season TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
  season TEXT, player_id TEXT, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,
  games INT NOT NULL, updated_at BIGINT NOT NULL, PRIMARY KEY (season, player_id));
CREATE INDEX IF NOT EXISTS ratings_by_mu ON ratings (season, mu);
CREATE TABLE IF NOT EXISTS open_matches (match_id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL, body JSONB NOT NULL);
CREATE TABLE IF NOT EXISTS settled_matches (match_id TEXT PRIMARY KEY, body JSONB NOT NULL);
CREATE TABLE IF NOT EXISTS rating_history (
  id BIGSERIAL PRIMARY KEY, season TEXT NOT NULL, player_id TEXT NOT NULL, match_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS rating_history_by_player ON rating_history (season, player_id, id);
`;

type Compute = (match: OpenMatch, current: ReadonlyMap<string, StoredRating>) => SettledMatch;

export class PostgresRatingStore implements RatingStore {
  constructor(
    private readonly pool: Pool,
    private readonly now: () => number = Date.now,
  ) {}

  /** Create the tables if they are missing (once, at startup). */
  async migrate(): Promise<void> {
    await this.pool.query(RATINGS_SCHEMA);
  }

  async currentSeason(): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ season: string }>("SELECT season FROM rating_season");
    return rows[0]?.season;
  }

  async startSeason(season: string): Promise<void> {
    await this.pool.query(
      "INSERT INTO rating_season (id, season) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET season = $1",
      [season],
    );
  }

  ratings(season: string, playerIds: readonly string[]): Promise<Map<string, StoredRating>> {
    return readRatings(this.pool, season, playerIds);
  }

  async openMatch(match: OpenMatch, expiresAt: number): Promise<void> {
    // A match already settled is not opened again.
    await this.pool.query(
      `INSERT INTO open_matches (match_id, expires_at, body)
       SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM settled_matches WHERE match_id = $1)
       ON CONFLICT (match_id) DO UPDATE SET expires_at = $2, body = $3`,
      [match.matchId, expiresAt, JSON.stringify(match)],
    );
  }

  // The one method that must be atomic: one transaction, rolled back when anything throws.
  async settle(matchId: string, compute: Compute): Promise<SettleOutcome> {
    const db = await this.pool.connect();
    try {
      await db.query("BEGIN");
      const outcome = await this.settleIn(db, matchId, compute);
      await db.query("COMMIT");
      return outcome;
    } catch (error) {
      await db.query("ROLLBACK");
      throw error;
    } finally {
      db.release();
    }
  }

  async history(season: string, playerId: string, limit: number): Promise<SettledMatch[]> {
    const { rows } = await this.pool.query<{ body: SettledMatch }>(
      `SELECT s.body FROM rating_history h JOIN settled_matches s USING (match_id)
       WHERE h.season = $1 AND h.player_id = $2 ORDER BY h.id DESC LIMIT $3`,
      [season, playerId, limit],
    );
    return rows.map((row) => row.body);
  }

  async distribution(season: string, width: number): Promise<RatingBin[]> {
    const { rows } = await this.pool.query<{ bin: number; count: string }>(
      "SELECT floor(mu / $2) AS bin, count(*) AS count FROM ratings WHERE season = $1 GROUP BY bin ORDER BY bin",
      [season, width],
    );
    return rows.map((row) => ({ from: Number(row.bin) * width, count: Number(row.count) }));
  }

  private async settleIn(db: PoolClient, matchId: string, compute: Compute): Promise<SettleOutcome> {
    // Lock the open match: a second report of it waits here, then finds it settled.
    const open = await db.query<{ body: OpenMatch; expires_at: string }>(
      "SELECT body, expires_at FROM open_matches WHERE match_id = $1 FOR UPDATE",
      [matchId],
    );
    const done = await db.query<{ body: SettledMatch }>("SELECT body FROM settled_matches WHERE match_id = $1", [
      matchId,
    ]);
    if (done.rows[0]) return { status: "already", match: done.rows[0].body };
    const row = open.rows[0];
    if (!row || Number(row.expires_at) <= this.now()) return { status: "unknown" };
    const match = row.body;
    // Lock the players (sorted, so two matches never wait on each other): a player in two matches
    // reported at once gets both results, one after the other.
    const players = [...new Set(match.teams.flatMap((team) => team.flatMap((seat) => seat.playerId ?? [])))].sort();
    await db.query("SELECT pg_advisory_xact_lock(hashtextextended(p, 0)) FROM unnest($1::text[]) AS p", [players]);
    const current = await readRatings(db, match.season, players);
    const record = compute(match, current);
    for (const change of record.changes) {
      await db.query(
        `INSERT INTO ratings (season, player_id, mu, sigma, games, updated_at) VALUES ($1, $2, $3, $4, 1, $5)
         ON CONFLICT (season, player_id) DO UPDATE
         SET mu = $3, sigma = $4, games = ratings.games + 1, updated_at = $5`,
        [match.season, change.playerId, change.after.mu, change.after.sigma, record.settledAt],
      );
      await db.query("INSERT INTO rating_history (season, player_id, match_id) VALUES ($1, $2, $3)", [
        match.season,
        change.playerId,
        matchId,
      ]);
    }
    await db.query("INSERT INTO settled_matches (match_id, body) VALUES ($1, $2)", [matchId, JSON.stringify(record)]);
    await db.query("DELETE FROM open_matches WHERE match_id = $1", [matchId]);
    return { status: "applied", match: record };
  }
}

async function readRatings(
  db: Pool | PoolClient,
  season: string,
  playerIds: readonly string[],
): Promise<Map<string, StoredRating>> {
  const { rows } = await db.query<{ player_id: string; mu: number; sigma: number; games: number; updated_at: string }>(
    "SELECT player_id, mu, sigma, games, updated_at FROM ratings WHERE season = $1 AND player_id = ANY($2)",
    [season, playerIds],
  );
  return new Map(
    rows.map((r) => [r.player_id, { mu: r.mu, sigma: r.sigma, games: r.games, updatedAt: Number(r.updated_at) }]),
  );
}
