/**
 * A room's handler for message types it has no handler for. Colyseus 0.18 closes such a client
 * with a reason that quotes the type (`room onMessage for "<type>" not registered.`), and `ws`
 * throws when a close reason is over 123 bytes, outside any handler: one message whose type is
 * about 90 characters long, from any client, shut the whole server down. Register this as the
 * room's fallback (`messages = { ..., _: closeUnknownMessage }`): the client is closed the same way
 * (code 4002) with a fixed reason.
 */
import { CloseCode, type Client } from "@colyseus/core";

/** The close reason a client that sent an unknown message type receives. */
export const UNKNOWN_MESSAGE_REASON = "unknown message type";

/**
 * A room's fallback message handler (`messages._`, i.e. `onMessage("*")`): closes the sender with
 * code 4002 and a fixed reason, never one that quotes the type it sent.
 */
export function closeUnknownMessage(client: Client, _type?: unknown, _message?: unknown): void {
  client.leave(CloseCode.WITH_ERROR, UNKNOWN_MESSAGE_REASON);
}
