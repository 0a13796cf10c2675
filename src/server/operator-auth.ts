/**
 * Closed by default: the gate in front of operator routes (the Colyseus monitor, the metrics,
 * the dashboard). The monitor shows every waiting player and runs room methods (`disconnect`
 * included), so nothing operator-facing is mounted bare.
 *
 * - With credentials (options, or `MATCHMAKER_OPERATOR_USER` and `MATCHMAKER_OPERATOR_PASSWORD`
 *   in the environment), every request must carry them as HTTP Basic authentication.
 * - Without credentials, only requests from this machine's loopback address that carry no
 *   forwarding header at all are let through, so `npm start` works on a laptop and nothing is
 *   exposed on a server. Any header a proxy or CDN uses to pass on a client or itself
 *   ({@link FORWARDING_HEADERS}, every `X-Forwarded-*`) marks the request as relayed: a proxy on
 *   the same host (nginx commonly sends `X-Real-IP` or `X-Forwarded-Host` alone) then gets 403,
 *   whoever its client is. A proxy that sends none of them looks local: set credentials for any
 *   deployment.
 */
import { timingSafeEqual, createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** Credentials for {@link operatorAuth}. */
export interface OperatorCredentials {
  readonly user: string;
  readonly password: string;
}

/** Options of {@link operatorAuth}. */
export interface OperatorAuthOptions {
  /** Explicit credentials; default: the `MATCHMAKER_OPERATOR_USER` / `_PASSWORD` environment variables. */
  readonly credentials?: OperatorCredentials;
  /** The realm browsers show in the login prompt. */
  readonly realm?: string;
}

/** Credentials from the environment, or `undefined` when either variable is missing or empty. */
export function operatorCredentialsFromEnv(env: NodeJS.ProcessEnv = process.env): OperatorCredentials | undefined {
  const user = env.MATCHMAKER_OPERATOR_USER;
  const password = env.MATCHMAKER_OPERATOR_PASSWORD;
  return user && password ? { user, password } : undefined;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * Headers that say a request was relayed, as proxies, load balancers and CDNs set them (lower
 * case, as Node gives header names); every `X-Forwarded-*` header counts too.
 */
export const FORWARDING_HEADERS: ReadonlySet<string> = new Set([
  "forwarded",
  "via",
  "x-real-ip",
  "x-client-ip",
  "client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "cf-connecting-ipv6",
  "fastly-client-ip",
  "x-cluster-client-ip",
  "x-original-forwarded-for",
  "x-envoy-external-address",
  "x-azure-clientip",
  "x-azure-socketip",
  "x-appengine-user-ip",
  "akamai-client-ip",
]);

/** Whether `req` carries any header a proxy sets ({@link FORWARDING_HEADERS}, or any `X-Forwarded-*`). */
export function isRelayed(req: IncomingMessage): boolean {
  for (const name of Object.keys(req.headers))
    if (name.startsWith("x-forwarded-") || FORWARDING_HEADERS.has(name)) return true;
  return false;
}

/** Whether the request comes straight from this machine (not relayed by a proxy). */
export function isDirectLocalRequest(req: IncomingMessage): boolean {
  return !isRelayed(req) && LOOPBACK.has(req.socket.remoteAddress ?? "");
}

/** Compares secrets in time independent of where they differ (hashing first evens the lengths). */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The Basic credentials a request carries, if any. */
function basicCredentials(req: IncomingMessage): OperatorCredentials | undefined {
  const header = req.headers.authorization;
  if (!header?.startsWith("Basic ")) return undefined;
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * An Express-compatible middleware that lets operators through and refuses everyone else with
 * 401 (credentials configured) or 403 (none configured and not a direct local request), saying
 * what to do. Mount it in front of every operator route:
 * `app.use("/monitor", operatorAuth(), monitor())`.
 */
export function operatorAuth(options: OperatorAuthOptions = {}) {
  const realm = options.realm ?? "matchmaker operators";
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    // Read per request, so credentials set after start-up (or in tests) take effect.
    const expected = options.credentials ?? operatorCredentialsFromEnv();
    if (!expected) {
      if (isDirectLocalRequest(req)) return next();
      res.statusCode = 403;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end(
        "operator routes are open only to this machine until MATCHMAKER_OPERATOR_USER and MATCHMAKER_OPERATOR_PASSWORD are set\n",
      );
      return;
    }
    const given = basicCredentials(req);
    // Both comparisons run whatever the first gives, so timing does not tell which one failed.
    const userOk = given !== undefined && sameSecret(given.user, expected.user);
    const passwordOk = given !== undefined && sameSecret(given.password, expected.password);
    if (userOk && passwordOk) return next();
    res.statusCode = 401;
    res.setHeader("WWW-Authenticate", `Basic realm="${realm}", charset="UTF-8"`);
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end("operator credentials required\n");
  };
}
