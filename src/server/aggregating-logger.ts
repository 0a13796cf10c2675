/**
 * A logger for Colyseus (`defineServer({ logger })`) that keeps a flood from flooding the log.
 * Colyseus logs every malformed WebSocket frame, and every failed message handler, with a full
 * stack trace: one client sending garbage wrote 7.9 MB in 6 s. This logger writes the first error
 * of a kind in full (its stack only the first time that kind is seen), counts the repeats, and
 * writes one line per kind and window saying how many it folded.
 */

/** What Colyseus calls on its logger (console fits). */
export interface LoggerLike {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  trace?(...args: unknown[]): void;
}

/** Options of {@link aggregatingLogger}. */
export interface AggregatingLoggerOptions {
  /** Where lines go (default `console`). */
  readonly base?: LoggerLike;
  /** How long repeats of one kind are folded into one line, in ms (default 10,000). */
  readonly windowMs?: number;
  /** How many kinds are told apart at once; beyond that, repeats count under "other errors" (default 100). */
  readonly maxKinds?: number;
  /** The clock (ms); injected by tests. */
  readonly now?: () => number;
}

/** The logger, plus what tests and shutdown need. */
export interface AggregatingLogger extends LoggerLike {
  /** Write the pending "repeated N times" lines now. */
  flush(): void;
  /** Flush and stop the window timer. */
  close(): void;
}

interface Kind {
  readonly level: "warn" | "error";
  readonly label: string;
  windowStart: number;
  folded: number;
}

const OTHER = "other errors";

/** The kind of a log call: its first line, with numbers and ids blanked so variants fold together. */
export function kindOf(args: readonly unknown[]): string {
  const first = args[0];
  const text = first instanceof Error ? `${first.name}: ${first.message}` : String(first);
  return text
    .split("\n", 1)[0]
    .replace(/0x[0-9a-f]+|\d+/gi, "#")
    .replace(/\(roomId: [^)]*\)/g, "(roomId: …)")
    .slice(0, 200);
}

/** A logger that folds repeated warnings and errors (see the module comment). */
export function aggregatingLogger(options: AggregatingLoggerOptions = {}): AggregatingLogger {
  const base = options.base ?? console;
  const windowMs = options.windowMs ?? 10_000;
  const maxKinds = options.maxKinds ?? 100;
  const now = options.now ?? Date.now;
  const kinds = new Map<string, Kind>();
  const seenStacks = new Set<string>();

  const report = (kind: Kind) => {
    if (kind.folded > 0) {
      base[kind.level](`(repeated ${kind.folded} more times in ${Math.round(windowMs / 1000)} s) ${kind.label}`);
    }
  };
  const flush = () => {
    const t = now();
    for (const [key, kind] of kinds) {
      if (t - kind.windowStart < windowMs) continue;
      report(kind);
      kinds.delete(key);
    }
  };
  const timer = setInterval(flush, windowMs);
  timer.unref?.();

  const log = (level: "warn" | "error", args: unknown[]) => {
    flush();
    let key = kindOf(args);
    let kind = kinds.get(key);
    if (!kind && kinds.size >= maxKinds) {
      key = OTHER;
      kind = kinds.get(OTHER);
    }
    if (kind) {
      kind.folded++;
      return;
    }
    kinds.set(key, { level, label: key, windowStart: now(), folded: 0 });
    // The stack only the first time this kind is seen; afterwards its first line.
    const first = args[0];
    if (typeof first === "string" && first.includes("\n") && seenStacks.has(key)) {
      base[level](first.split("\n", 1)[0], ...args.slice(1));
    } else if (first instanceof Error && seenStacks.has(key)) {
      base[level](`${first.name}: ${first.message}`, ...args.slice(1));
    } else {
      base[level](...args);
    }
    if (seenStacks.size < maxKinds * 10) seenStacks.add(key);
  };

  return {
    debug: (...args) => base.debug(...args),
    info: (...args) => base.info(...args),
    trace: (...args) => (base.trace ?? base.debug)(...args),
    warn: (...args) => log("warn", args),
    error: (...args) => log("error", args),
    flush: () => {
      for (const kind of kinds.values()) report(kind);
      kinds.clear();
    },
    close: () => {
      clearInterval(timer);
      for (const kind of kinds.values()) report(kind);
      kinds.clear();
    },
  };
}
