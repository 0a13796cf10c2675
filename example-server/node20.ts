// Colyseus 0.18 expects Node 22's global WebSocket (it reads WebSocket.OPEN for reconnection).
// On Node 20, provide the `ws` implementation before Colyseus loads. Import this module first.
import { WebSocket } from "ws";

(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
