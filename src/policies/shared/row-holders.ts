/**
 * Who holds a waiting ticket's row in a {@link RowTree} (best-game's 1v1 and block layouts): the
 * engine's arrival node of the ticket when it was added with it (no object of the layout's own
 * per ticket), else a {@link StandIn}, kept in the slot it came with or in a map by id. The
 * holder is the row's value, and its `policyData` names the leaf holding the row while the
 * ticket waits (kept through splits by the tree's `moved` callback), so a leave finds the row
 * by identity in that leaf: neither a descent nor the ticket's rating.
 */
import { isArrivalNodeOf, type ArrivalNode } from "../../core/arrival-order.js";
import type { TicketSlot } from "../../core/policy.js";
import type { Ticket } from "../../core/types.js";

/** A waiting ticket's value in the tree; `policyData` is its leaf while it waits, undefined once it left. */
export interface RowHolder {
  readonly ticket: Ticket;
  policyData: unknown;
}

/** The holder of a ticket added without its arrival node (by id, or in a foreign slot's `policyData`). */
export class StandIn implements RowHolder {
  policyData: unknown = undefined;
  constructor(readonly ticket: Ticket) {}
}

/** Still waiting: its holder names a leaf. */
export const isHeld = (h: RowHolder | undefined): h is RowHolder => typeof h?.policyData === "number";

/** The holders of one layout's tickets, and the stand-ins of those added without a slot. */
export class RowHolders {
  /** Stand-ins of the tickets added without a slot (with one, the slot is the holder or keeps it). */
  readonly byId = new Map<string, RowHolder>();

  /** The holder a slot names (the slot itself, an arrival node holding a leaf, or the stand-in it keeps), or the one by id. */
  find(ticketId: string, slot: TicketSlot | undefined): RowHolder | undefined {
    if (!slot) return this.byId.get(ticketId);
    const data = slot.policyData;
    if (typeof data === "number") return slot as ArrivalNode;
    return data instanceof StandIn ? data : undefined;
  }

  /** The holder of a ticket about to be inserted: its arrival node, or a new stand-in kept in the slot or by id. */
  hold(ticket: Ticket, slot: TicketSlot | undefined): RowHolder {
    if (isArrivalNodeOf(slot, ticket)) return slot;
    const standIn = new StandIn(ticket);
    if (slot) slot.policyData = standIn;
    else this.byId.set(ticket.id, standIn);
    return standIn;
  }

  /** The ticket of `holder` left the tree: it no longer names a leaf, nor stands by id. */
  release(holder: RowHolder): void {
    // (The map is empty when the engine passes slots: the ticket is then not reached.)
    if (this.byId.size > 0 && this.byId.get(holder.ticket.id) === holder) this.byId.delete(holder.ticket.id);
    holder.policyData = undefined;
  }
}
