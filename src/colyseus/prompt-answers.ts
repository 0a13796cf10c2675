/**
 * Answers to the queue's own prompts do not count toward the message rate limit. Colyseus 0.18
 * counts every frame a client sends against `maxMessagesPerSecond` before any handler runs
 * (`Room._onMessage`: `client._numMessagesLastSecond`, reset a second after the first frame of a
 * window; over the limit, the client is closed with code 4002). A client that accepts each
 * `match_found` at once would then be closed for answering prompts as fast as a griefer who breaks
 * ready checks in a loop makes them come: the limit punished the players it was asked of.
 *
 * So each prompt the queue sends a player (`match_found`, answered by `accept` or `decline`; `seat`,
 * answered by `confirm`) gives it one credit, and a frame that answers while the player has a
 * credit is handed back to the count. Credits are counted per prompt, not per open ready check:
 * an `accept` arriving just after its ready check fell through (a griefer declined first) is still
 * an answer. They are capped ({@link MAX_CREDITS}), so a client that ignores its prompts cannot
 * save answers up: a client sending 1,000 unprompted accepts a second is still over the limit.
 */
import type { Client, ClientPrivate } from "@colyseus/core";

/** Unanswered prompts a player can hold credit for (a late answer to a check that fell through, the open one, and slack). */
export const MAX_CREDITS = 4;

/** The prompts each player was sent and has not answered yet, up to {@link MAX_CREDITS}. */
export class PromptCredits {
  private readonly credits = new Map<string, number>();

  /** The queue sent `playerId` a prompt. */
  sent(playerId: string): void {
    this.credits.set(playerId, Math.min(MAX_CREDITS, (this.credits.get(playerId) ?? 0) + 1));
  }

  /** `client`'s frame just received answers a prompt: if it holds a credit, the frame does not count toward the rate limit. */
  answered(client: Client): void {
    const left = this.credits.get(client.sessionId) ?? 0;
    if (left <= 0) return;
    if (left === 1) this.credits.delete(client.sessionId);
    else this.credits.set(client.sessionId, left - 1);
    handBack(client);
  }

  /** The player left the queue. */
  forget(playerId: string): void {
    this.credits.delete(playerId);
  }
}

/** Take `client`'s last frame off its count toward `maxMessagesPerSecond`. */
function handBack(client: Client): void {
  const counted = client as Client & Partial<Pick<ClientPrivate, "_numMessagesLastSecond">>;
  // The first frame of a window is not counted (the count restarts at 0): nothing to hand back then.
  if ((counted._numMessagesLastSecond ?? 0) > 0) counted._numMessagesLastSecond! -= 1;
}
