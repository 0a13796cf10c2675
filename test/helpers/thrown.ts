/** The error a call throws, for tests that look at its code, field and message. */
import { expect } from "vitest";

/** What `call` throws, which must be a `kind` (the test fails when it throws nothing or something else). */
export function thrown<E extends Error>(call: () => unknown, kind: abstract new (...args: never[]) => E): E {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return error as E;
  }
  throw new Error(`expected a ${kind.name} to be thrown`);
}

/** The code and message `run` throws (a `MatchmakerError`'s), as one string, or "accepted". */
export async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
    return "accepted";
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
}
