/** What `/play/queues.json` tells the page about each queue of the server. */
export interface QueueDescription {
  /** The room name to join. */
  readonly name: string;
  readonly teamSize: number;
  readonly policy: string;
  /** The zones a player may pick (empty: the queue has none). */
  readonly zones: readonly string[];
  /** The ready check's time to accept (ms), or null without one. */
  readonly readyCheckMs: number | null;
  readonly rating: { readonly min: number; readonly max: number };
  /** A role queue: the page does not offer it (players must pick roles). */
  readonly roles: boolean;
}
