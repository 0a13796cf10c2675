/**
 * The director: everything that happens to a ticket once the queue has matched it. It creates
 * the game room and reserves seats (a new match's and backfill's alike, `game-room.ts`, the side
 * facing Colyseus), delivers each seat, and owns every way a ticket goes back to the queue or
 * out of it (`tickets.ts`, socket-free, so `QueueSession` tests drive it without a server). Once
 * a seat is sent, it follows it until its player enters the game room (`seat-watch.ts`, socket-free;
 * `arrivals.ts`, the game room's report and the queue's no-show notice across processes).
 */
export * from "./game-room.js";
export * from "./tickets.js";
export * from "./seat-watch.js";
export * from "./arrivals.js";
