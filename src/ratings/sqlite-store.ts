/**
 * A rating store in an SQLite file, through node-sqlite3-wasm (SQLite compiled to WebAssembly: no
 * native build, an optional peer dependency loaded only here). The default store that outlives a
 * restart of a single-process server.
 *
 * Why WAL with an exclusive lock: node-sqlite3-wasm locks a file with a `.lock` directory that it
 * also counts as "another connection's reserved lock" when checking for a hot rollback journal, so
 * in the default journal mode a crash in the middle of a commit is never rolled back (seen:
 * lab/rating-stores.md). In WAL mode a commit is one append that recovery either replays whole or
 * drops, and WAL needs no shared memory when the connection keeps its lock (`locking_mode =
 * EXCLUSIVE`). That makes the file one process's: {@link SqliteRatingStore} says so when another
 * live process holds it, and takes the lock back from a process that died holding it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { MatchmakerError } from "../core/errors.js";
import { requireOptional } from "../core/optional-package.js";
import type { RatingBin, RatingStore, SettleOutcome } from "./store.js";
import type { OpenMatch, SettledMatch, StoredRating } from "./types.js";

/** Options of {@link SqliteRatingStore}. */
export interface SqliteRatingStoreOptions {
  /** The database file (created, with its tables, when missing). */
  readonly path: string;
}

/** What this store uses of node-sqlite3-wasm's `Database` (typed here: the package is optional). */
interface Database {
  exec(sql: string): void;
  run(sql: string, values?: readonly SqlValue[]): { changes: number };
  all(sql: string, values?: readonly SqlValue[]): Array<Record<string, SqlValue>>;
  get(sql: string, values?: readonly SqlValue[]): Record<string, SqlValue> | null;
  readonly inTransaction: boolean;
  close(): void;
}
type SqlValue = string | number | bigint | null;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rating_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
  season TEXT NOT NULL, player_id TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
  games INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (season, player_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ratings_by_mu ON ratings (season, mu);
CREATE TABLE IF NOT EXISTS open_matches (match_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS open_matches_by_expiry ON open_matches (expires_at);
CREATE TABLE IF NOT EXISTS settled_matches (match_id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rating_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT, season TEXT NOT NULL, player_id TEXT NOT NULL, match_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS rating_history_by_player ON rating_history (season, player_id, id);
`;

/** One connection per file in this process, shared by every store opened on it. */
const connections = new Map<string, { db: Database; users: number }>();

/**
 * Ratings in an SQLite file: they survive a restart, and a crash never leaves a result half
 * applied. **For one process**: several stores in one process share the file's one connection, but
 * a second process opening the file is refused (`MatchmakerError("invalid_config")`) while the
 * first lives; servers that share ratings use `RedisRatingStore` or the game's own database.
 * Needs the `node-sqlite3-wasm` package. Every call runs synchronously to its end, so `settle` is
 * one transaction (`BEGIN IMMEDIATE` … `COMMIT`, `ROLLBACK` when `compute` throws). A process
 * crash loses no applied result; a power loss may lose the last ones, each whole.
 */
export class SqliteRatingStore implements RatingStore {
  private readonly file: string;
  private db: Database | undefined;
  private closed = false;

  constructor(
    options: SqliteRatingStoreOptions,
    private readonly now: () => number = Date.now,
  ) {
    if (typeof options?.path !== "string" || options.path.length === 0)
      throw new MatchmakerError("invalid_config", "ratings store: path must name a file", "path");
    this.file = resolve(options.path);
    databaseClass(); // the package is there; the file itself opens at first use
  }

  currentSeason(): Promise<string | undefined> {
    return attempt(() => {
      const row = this.open().get("SELECT value FROM rating_meta WHERE key = 'season'");
      return row ? String(row.value) : undefined;
    });
  }

  startSeason(season: string): Promise<void> {
    return attempt(() => {
      this.open().run(
        "INSERT INTO rating_meta (key, value) VALUES ('season', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [season],
      );
    });
  }

  ratings(season: string, playerIds: readonly string[]): Promise<Map<string, StoredRating>> {
    return attempt(() => readRatings(this.open(), season, playerIds));
  }

  openMatch(match: OpenMatch, expiresAt: number): Promise<void> {
    return attempt(() => {
      const db = this.open();
      db.run("DELETE FROM open_matches WHERE expires_at <= ?", [this.now()]);
      if (db.get("SELECT 1 AS settled FROM settled_matches WHERE match_id = ?", [match.matchId])) return;
      db.run(
        "INSERT INTO open_matches (match_id, expires_at, body) VALUES (?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body",
        [match.matchId, expiresAt, JSON.stringify(match)],
      );
    });
  }

  settle(
    matchId: string,
    compute: (match: OpenMatch, current: ReadonlyMap<string, StoredRating>) => SettledMatch,
  ): Promise<SettleOutcome> {
    return attempt(() => {
      const db = this.open();
      db.exec("BEGIN IMMEDIATE");
      try {
        const outcome = this.settleNow(db, matchId, compute);
        db.exec("COMMIT");
        return outcome;
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw error;
      }
    });
  }

  history(season: string, playerId: string, limit: number): Promise<SettledMatch[]> {
    return attempt(() =>
      this.open()
        .all(
          `SELECT s.body FROM rating_history h JOIN settled_matches s ON s.match_id = h.match_id
           WHERE h.season = ? AND h.player_id = ? ORDER BY h.id DESC LIMIT ?`,
          [season, playerId, limit],
        )
        .map((row) => JSON.parse(String(row.body)) as SettledMatch),
    );
  }

  distribution(season: string, width: number): Promise<RatingBin[]> {
    return attempt(() =>
      // floor(mu / width) without SQLite's optional math functions: CAST truncates toward zero.
      this.open()
        .all(
          `SELECT bin, count(*) AS count FROM (
             SELECT CAST(mu / ?1 AS INTEGER) - (mu / ?1 < CAST(mu / ?1 AS INTEGER)) AS bin FROM ratings WHERE season = ?2)
           GROUP BY bin ORDER BY bin`,
          [width, season],
        )
        .map((row) => ({ from: Number(row.bin) * width, count: Number(row.count) })),
    );
  }

  /** Close the file when this is the last store of this process using it. */
  close(): Promise<void> {
    this.closed = true;
    const db = this.db;
    if (!db) return Promise.resolve();
    this.db = undefined;
    const shared = connections.get(this.file)!;
    if (--shared.users === 0) {
      connections.delete(this.file);
      db.close();
      rmSync(pidFile(this.file), { force: true });
    }
    return Promise.resolve();
  }

  private settleNow(
    db: Database,
    matchId: string,
    compute: (match: OpenMatch, current: ReadonlyMap<string, StoredRating>) => SettledMatch,
  ): SettleOutcome {
    const done = db.get("SELECT body FROM settled_matches WHERE match_id = ?", [matchId]);
    if (done) return { status: "already", match: JSON.parse(String(done.body)) as SettledMatch };
    const open = db.get("SELECT body FROM open_matches WHERE match_id = ? AND expires_at > ?", [matchId, this.now()]);
    if (!open) return { status: "unknown" };
    const match = JSON.parse(String(open.body)) as OpenMatch;
    const players = match.teams.flatMap((team) => team.flatMap((seat) => seat.playerId ?? []));
    const current = readRatings(db, match.season, players);
    const record = compute(match, current);
    for (const change of record.changes) {
      db.run(
        `INSERT INTO ratings (season, player_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, 1, ?)
         ON CONFLICT (season, player_id) DO UPDATE SET
           mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, updated_at = excluded.updated_at`,
        [match.season, change.playerId, change.after.mu, change.after.sigma, record.settledAt],
      );
      db.run("INSERT INTO rating_history (season, player_id, match_id) VALUES (?, ?, ?)", [
        match.season,
        change.playerId,
        matchId,
      ]);
    }
    db.run("INSERT INTO settled_matches (match_id, body) VALUES (?, ?)", [matchId, JSON.stringify(record)]);
    db.run("DELETE FROM open_matches WHERE match_id = ?", [matchId]);
    return { status: "applied", match: record };
  }

  /**
   * The file's connection, opened at the first call (a server may create its store at import, in
   * processes that never use it, without taking the file's lock).
   */
  private open(): Database {
    if (this.closed) throw new Error("SqliteRatingStore: used after close()");
    if (!this.db) {
      const shared = connections.get(this.file) ?? { db: openFile(this.file), users: 0 };
      shared.users++;
      connections.set(this.file, shared);
      this.db = shared.db;
    }
    return this.db;
  }
}

function readRatings(db: Database, season: string, playerIds: readonly string[]): Map<string, StoredRating> {
  const found = new Map<string, StoredRating>();
  if (playerIds.length === 0) return found;
  const rows = db.all(
    `SELECT player_id, mu, sigma, games, updated_at FROM ratings WHERE season = ? AND player_id IN (${playerIds.map(() => "?").join(", ")})`,
    [season, ...playerIds],
  );
  for (const row of rows)
    found.set(String(row.player_id), {
      mu: Number(row.mu),
      sigma: Number(row.sigma),
      games: Number(row.games),
      updatedAt: Number(row.updated_at),
    });
  return found;
}

/** Open `file` for this process: take back the lock of a process that died holding it, refuse a live one's. */
function databaseClass(): new (path: string) => Database {
  return requireOptional<{ Database: new (path: string) => Database }>("node-sqlite3-wasm", "SqliteRatingStore", "path")
    .Database;
}

function openFile(file: string): Database {
  const Database = databaseClass();
  const lock = `${file}.lock`;
  if (existsSync(lock)) {
    const holder = lockHolder(file);
    if (holder !== undefined) throw inUse(file, holder);
    rmSync(lock, { recursive: true, force: true }); // left by a process that died holding it
  }
  const db = new Database(file);
  try {
    // The first read takes the lock for good (exclusive mode); WAL recovery drops a torn commit.
    // synchronous = NORMAL: no fsync per commit, which would block the event loop (and every join)
    // about a millisecond per match; a process crash loses nothing, a power loss at most the last
    // commits, whole (WAL never keeps half of one).
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    db.exec(SCHEMA);
  } catch (error) {
    db.close();
    if (/locked|busy/i.test(String(error))) throw inUse(file, lockHolder(file));
    throw error;
  }
  writeFileSync(pidFile(file), String(process.pid));
  return db;
}

function pidFile(file: string): string {
  return `${file}.pid`;
}

/** The live process, other than this one, that holds `file`, if any. */
function lockHolder(file: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile(file), "utf8").trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : undefined;
  }
}

function inUse(file: string, pid: number | undefined): MatchmakerError {
  return new MatchmakerError(
    "invalid_config",
    `ratings store ${file} is open in another process${pid === undefined ? "" : ` (${pid})`}: SqliteRatingStore is for one process; share ratings between servers with RedisRatingStore or your own database`,
    "path",
  );
}

/** Run a synchronous store call as a promise, its error as a rejection. */
function attempt<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
