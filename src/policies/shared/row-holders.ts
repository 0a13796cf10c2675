/**
 * Who holds a waiting ticket's row in a {@link RowTree} (best-game's 1v1 and block layouts): a
 * {@link StandIn} per ticket, found by id. The holder is the row's value, and its `policyData`
 * names the leaf holding the row while the ticket waits (kept through splits by the tree's
 * `moved` callback), so a leave finds the row by identity in that leaf: neither a descent nor
 * the ticket's rating.
 */
import type { Ticket } from "../../core/types.js";

/** A waiting ticket's value in the tree; `policyData` is its leaf while it waits, undefined once it left. */
export interface RowHolder {
  readonly ticket: Ticket;
  policyData: unknown;
}

/** The holder of a waiting ticket. */
export class StandIn implements RowHolder {
  policyData: unknown = undefined;
  constructor(readonly ticket: Ticket) {}
}

/** Still waiting: its holder names a leaf. */
export const isHeld = (h: RowHolder | undefined): h is RowHolder => typeof h?.policyData === "number";

/** The holders of one layout's tickets, by id. */
export class RowHolders {
  readonly byId = new Map<string, RowHolder>();

  /** The holder of `ticketId`, if any. */
  find(ticketId: string): RowHolder | undefined {
    return this.byId.get(ticketId);
  }

  /** The holder of a ticket about to be inserted, kept by id. */
  hold(ticket: Ticket): RowHolder {
    const standIn = new StandIn(ticket);
    this.byId.set(ticket.id, standIn);
    return standIn;
  }

  /** The ticket of `holder` left the tree: it no longer names a leaf, nor stands by id. */
  release(holder: RowHolder): void {
    if (this.byId.get(holder.ticket.id) === holder) this.byId.delete(holder.ticket.id);
    holder.policyData = undefined;
  }
}
