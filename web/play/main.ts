/**
 * The player page (`/play` on the example server): join a queue alone, as a party's leader or
 * with a party code; follow the wait; answer the ready check; land in the demo game room and
 * see both teams. Bundled for the browser with esbuild by example-server/play.ts.
 */
import { Client, type Room } from "@colyseus/sdk";
import type { MatchFoundMessage, PartyMessage, SeatMessage, StatusMessage } from "../../src/index.js";
import type { QueueDescription } from "./queues.js";

/** The demo game room's state as the page reads it (example-server/DemoGameRoom.ts). */
interface DemoSeat {
  sessionId: string;
  side: string;
  rating: number;
  arrived: boolean;
}
interface DemoGameState {
  matchId: string;
  seats: { forEach(callback: (seat: DemoSeat, id: string) => void): void };
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
};

const form = $<HTMLFormElement>("join-form");
const queueSelect = $<HTMLSelectElement>("queue");
const ratingInput = $<HTMLInputElement>("rating");
const sideSelect = $<HTMLSelectElement>("side");
const codeInput = $<HTMLInputElement>("party-code-input");
const joinButton = $<HTMLButtonElement>("join");
const joinError = $("join-error");

const endpoint = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;
const client = new Client(endpoint);

let queues: QueueDescription[] = [];
let queueRoom: Room | undefined;
let readyTimer: ReturnType<typeof setInterval> | undefined;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

function show(id: string, visible: boolean): void {
  $(id).hidden = !visible;
}

function selectedQueue(): QueueDescription | undefined {
  return queues.find((q) => q.name === queueSelect.value);
}

function mode(): "solo" | "create" | "join" {
  return (new FormData(form).get("mode") as "solo" | "create" | "join" | null) ?? "solo";
}

/** Show the choices the selected queue and mode allow. */
function refreshForm(): void {
  const queue = selectedQueue();
  if (!queue) return;
  $("queue-info").textContent =
    `${queue.teamSize}v${queue.teamSize}, policy ${queue.policy}, ratings ${queue.rating.min} to ${queue.rating.max}` +
    (queue.readyCheckMs !== null ? `, ready check (${seconds(queue.readyCheckMs)} to accept)` : "");
  const parties = queue.teamSize > 1;
  show("mode-create-label", parties);
  show("mode-join-label", parties);
  $("party-size").textContent = String(queue.teamSize);
  if (!parties) form.querySelector<HTMLInputElement>('input[name="mode"][value="solo"]')!.checked = true;
  const joining = mode() === "join";
  show("code-row", joining);
  // Party members take the leader's side and zones.
  show("choices", !joining);
  const zonesRow = $("zones-row");
  zonesRow.replaceChildren();
  if (queue.zones.length > 0) {
    zonesRow.append("Zones (none ticked: every zone your rating may enter):");
    for (const zone of queue.zones) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.name = "zone";
      box.value = zone;
      label.append(box, ` ${zone}`);
      zonesRow.append(" ", label);
    }
  }
}

function joinOptions(queue: QueueDescription): Record<string, unknown> {
  const options: Record<string, unknown> = { rating: Number(ratingInput.value) };
  if (mode() === "join") {
    options.partyCode = codeInput.value.trim();
    return options;
  }
  if (mode() === "create") options.party = { size: queue.teamSize };
  if (sideSelect.value) options.side = sideSelect.value;
  const zones = [...form.querySelectorAll<HTMLInputElement>('input[name="zone"]:checked')].map((box) => box.value);
  if (zones.length > 0) options.zones = zones;
  return options;
}

function ended(message: string): void {
  const p = $("ended");
  p.textContent = message;
  p.hidden = false;
}

function showStatus(status: StatusMessage): void {
  $("waited").textContent = seconds(status.waitedMs);
  $("estimate").textContent = status.estimatedWaitMs === null ? "unknown yet" : seconds(status.estimatedWaitMs);
  $("window").textContent = status.window
    ? `${Math.round(status.window.min)} to ${Math.round(status.window.max)}`
    : "none (this queue's policy has no window)";
  const zones = status.waitingByZone
    ? ` (${Object.entries(status.waitingByZone)
        .map(([zone, n]) => `${zone}: ${n}`)
        .join(", ")})`
    : "";
  $("waiting").textContent = `${status.waiting}${zones}`;
}

function showParty(party: PartyMessage): void {
  show("party-panel", true);
  $("party-code").textContent = party.code;
  const role = party.leader ? "you lead it" : "you are a member";
  const reason = party.reason ? ` (${party.reason})` : "";
  $("party-state").textContent =
    `${party.members} of ${party.size} joined, ${party.status}; ${role}; last: ${party.event}${reason}`;
  $("party-state").dataset.status = party.status;
  $("party-state").dataset.members = String(party.members);
}

function showReadyCheck(room: Room, found: MatchFoundMessage): void {
  show("ready-panel", true);
  $("ready-players").textContent = String(found.players);
  $("ready-state").textContent = "";
  const deadline = Date.now() + found.timeoutMs;
  const tick = () => ($("ready-left").textContent = String(Math.max(0, Math.ceil((deadline - Date.now()) / 1000))));
  tick();
  clearInterval(readyTimer);
  readyTimer = setInterval(tick, 250);
  const answer = (type: "accept" | "decline") => {
    room.send(type);
    $<HTMLButtonElement>("accept").disabled = true;
    $<HTMLButtonElement>("decline").disabled = true;
    $("ready-state").textContent = type === "accept" ? "accepted: waiting for the others" : "declined";
    $("ready-panel").dataset.answer = type;
  };
  $<HTMLButtonElement>("accept").disabled = false;
  $<HTMLButtonElement>("decline").disabled = false;
  $("accept").onclick = () => answer("accept");
  $("decline").onclick = () => answer("decline");
}

function renderGame(state: DemoGameState, me: string): void {
  $("game-match").textContent = state.matchId;
  const lists = { A: $("team-A").querySelector("ul")!, B: $("team-B").querySelector("ul")! };
  lists.A.replaceChildren();
  lists.B.replaceChildren();
  state.seats.forEach((seat, id) => {
    const item = document.createElement("li");
    item.textContent = `${id === me ? "you" : id} (rating ${seat.rating})${seat.arrived ? "" : " (joining…)"}`;
    item.dataset.sessionId = id;
    item.dataset.arrived = String(seat.arrived);
    if (id === me) item.className = "you";
    (seat.side === "B" ? lists.B : lists.A).append(item);
  });
}

async function takeSeat(seat: SeatMessage): Promise<void> {
  clearInterval(readyTimer);
  show("ready-panel", false);
  show("waiting-panel", false);
  const game = await client.consumeSeatReservation<DemoGameState>(seat);
  await queueRoom?.leave();
  queueRoom = undefined;
  show("game-panel", true);
  $("game-panel").dataset.roomId = game.roomId;
  $("game-panel").dataset.side = seat.side;
  $("game-you").textContent = `You play side ${seat.side}${seat.zone ? ` in zone ${seat.zone}` : ""}.`;
  game.onStateChange((state) => renderGame(state, game.sessionId));
  // The full state may have arrived before the handler: draw what is there now.
  if (game.state?.seats) renderGame(game.state, game.sessionId);
  game.onLeave(() => ended("The game room closed."));
}

form.addEventListener("change", refreshForm);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const queue = selectedQueue();
  if (!queue) return;
  joinError.textContent = "";
  joinButton.disabled = true;
  try {
    const room = await client.joinOrCreate(queue.name, joinOptions(queue));
    queueRoom = room;
    form.hidden = true;
    show("waiting-panel", true);
    $("queue-note").textContent = `Queue ${queue.name}; your session ${room.sessionId}.`;
    room.onMessage("status", showStatus);
    room.onMessage("clients", () => undefined); // QueueRoom's count: the status says more
    room.onMessage("party", showParty);
    room.onMessage("match_found", (found: MatchFoundMessage) => showReadyCheck(room, found));
    room.onMessage("requeued", (m: { reason: string }) => {
      show("ready-panel", false);
      $("queue-note").textContent = `Your match fell through (${m.reason}): you wait again at your place.`;
    });
    room.onMessage("removed", (m: { reason: string }) => ended(`You were removed from the queue (${m.reason}).`));
    room.onMessage("seat", (seat: SeatMessage) => {
      takeSeat(seat).catch((error: Error) => ended(`Could not take the seat: ${error.message}`));
    });
  } catch (error) {
    joinError.textContent = (error as Error).message;
  } finally {
    joinButton.disabled = false;
  }
});
$("leave").addEventListener("click", async () => {
  await queueRoom?.leave();
  queueRoom = undefined;
  location.reload();
});

async function loadQueues(): Promise<void> {
  const response = await fetch("queues.json");
  queues = ((await response.json()) as { queues: QueueDescription[] }).queues.filter((q) => !q.roles);
  queueSelect.replaceChildren(
    ...queues.map((q) => {
      const option = document.createElement("option");
      option.value = q.name;
      option.textContent = `${q.name} (${q.teamSize}v${q.teamSize}${q.readyCheckMs !== null ? ", ready check" : ""}${q.zones.length > 0 ? ", zones" : ""})`;
      return option;
    }),
  );
  const wanted = new URLSearchParams(location.search).get("queue");
  if (wanted && queues.some((q) => q.name === wanted)) queueSelect.value = wanted;
  refreshForm();
  document.body.dataset.ready = "true";
}

loadQueues().catch((error: Error) => ended(`Could not load the queues: ${error.message}`));
