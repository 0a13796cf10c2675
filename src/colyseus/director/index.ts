/**
 * The director: everything that happens to a ticket once the queue has matched it. It creates
 * the game room and reserves seats (a new match's and backfill's alike, `game-room.ts`, the side
 * facing Colyseus), delivers each seat, and owns every way a ticket goes back to the queue or
 * out of it (`tickets.ts`, socket-free, so `QueueSession` tests drive it without a server).
 */
export * from "./game-room.js";
export * from "./tickets.js";
