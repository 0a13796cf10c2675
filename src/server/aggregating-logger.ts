/**
 * A logger for Colyseus (`defineServer({ logger })`) that keeps a flood from flooding the log.
 * Colyseus logs every malformed WebSocket frame, and every failed message handler, with a full
 * stack trace: one client sending garbage wrote 7.9 MB in 6 s. This logger writes the first error
 * of a kind in full, counts the repeats, and writes one line per kind and window saying how many
 * it folded.
 *
 * Attacker bytes must not multiply what is written: a malformed frame's error message quotes the
 * frame (msgpackr's `Data read, but end of buffer not reached "…"`). So a kind is the message's
 * first line with its variable parts blanked (quoted text, JSON views, numbers, hex, long tokens),
 * and a stack is written once per place in the code that threw (its frames, which no input
 * chooses), not once per message: N distinct malformed frames give one stack trace.
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

/** Characters of a message's first line read to tell its kind (what follows cannot make a new kind). */
const KIND_INPUT_CHARS = 300;
/** Characters of a stack read to find its frames. */
const SITE_INPUT_CHARS = 4000;
/** The innermost frames that name a site: where it threw and the calls just above it. */
const SITE_FRAMES = 5;

/**
 * The kind of a log call: its first line with what varies blanked, so that variants, and any bytes
 * a client put in the message, fold together: quoted text (`"…"`), a JSON view to the end of the
 * line (`{…` / `[…`), ids in `(roomId: …)`, hex and numbers (`#`), and long tokens (`…`).
 */
export function kindOf(args: readonly unknown[]): string {
  const first = args[0];
  const text = first instanceof Error ? `${first.name}: ${first.message}` : String(first);
  return text
    .split("\n", 1)[0]
    .slice(0, KIND_INPUT_CHARS)
    .replace(/"(?:[^"\\]|\\.)*(?:"|$)|(?<!\w)'(?:[^'\\]|\\.)*(?:'|$)|`[^`]*(?:`|$)/g, '"…"')
    .replace(/\(roomId: [^)]*\)/g, "(roomId: …)")
    .replace(/(?<=[\s:=,(])[{[].*$/, "…")
    .replace(/[\w./+=-]{24,}/g, "…")
    .replace(/0x[0-9a-f]+|\d+/gi, "#")
    .slice(0, 200);
}

/**
 * Where an error was thrown: the stack's frames (`at …` lines) of a stack text or an `Error`, or
 * undefined when there are none. Frames name code, never input, so a flood of distinct messages
 * from one place shares one site.
 */
export function siteOf(value: unknown): string | undefined {
  const text = value instanceof Error ? value.stack : typeof value === "string" ? value : undefined;
  if (!text) return undefined;
  const frames = text
    .slice(0, SITE_INPUT_CHARS)
    .split("\n")
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line.startsWith("at "));
  return frames.length > 0 ? frames.slice(0, SITE_FRAMES).join("\n") : undefined;
}

/** A logger that folds repeated warnings and errors (see the module comment). */
export function aggregatingLogger(options: AggregatingLoggerOptions = {}): AggregatingLogger {
  const base = options.base ?? console;
  const windowMs = options.windowMs ?? 10_000;
  const maxKinds = options.maxKinds ?? 100;
  const now = options.now ?? Date.now;
  const kinds = new Map<string, Kind>();
  // Places in the code whose stack was written; bounded, past it no stack is written at all.
  const seenSites = new Set<string>();
  const maxSites = maxKinds * 10;

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

  /** An argument as written: with its stack the first time its site is seen, else its first line. */
  const withoutSeenStack = (arg: unknown, stackAllowed: boolean): unknown => {
    const site = siteOf(arg);
    if (site === undefined) return arg;
    if (stackAllowed && !seenSites.has(site) && seenSites.size < maxSites) {
      seenSites.add(site);
      return arg;
    }
    return arg instanceof Error ? `${arg.name}: ${arg.message}` : String(arg).split("\n", 1)[0];
  };

  const log = (level: "warn" | "error", args: unknown[]) => {
    flush();
    let key = kindOf(args);
    let kind = kinds.get(key);
    const overflow = !kind && kinds.size >= maxKinds;
    if (overflow) {
      key = OTHER;
      kind = kinds.get(OTHER);
    }
    if (kind) {
      kind.folded++;
      return;
    }
    kinds.set(key, { level, label: key, windowStart: now(), folded: 0 });
    // Beyond maxKinds kinds nothing new is learnt: no stack, only the first line.
    base[level](...args.map((arg) => withoutSeenStack(arg, !overflow)));
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
