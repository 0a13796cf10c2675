/**
 * The player page (`playPage()` of `colyseus-matchmaker/web`, `/play` on the example server):
 * join a queue alone, as a party's leader or with a party code; follow the wait; answer the ready
 * check; land in the game room and, in the demo game, see both teams. With Redis, a queue whose
 * process stops or dies is rejoined with the player's resume token, so the player keeps its place.
 * Bundled for the browser with esbuild when the package is built (src/web/assets.ts).
 */
import { Client, type Room } from "@colyseus/sdk";
import type {
  HandoverMessage,
  MatchFoundMessage,
  PartyMessage,
  RemovedMessage,
  RequeuedMessage,
  ResumedMessage,
  ResumeMessage,
  SeatMessage,
  StatusMessage,
} from "../../src/index.js";
import type { QueueDescription } from "../../src/web/queues.js";

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
/** Set while a seat is being taken: a closed queue connection is then no reason to rejoin. */
let seated = false;
/** Where the resume token is kept (issue 17): a rejoin with it gets this player's place back. */
const RESUME_KEY = "colyseus-matchmaker:resume";

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
    (queue.trustedPlayers ? ", your rating comes from your account (you sign in)" : "") +
    (queue.readyCheckMs !== null ? `, ready check (${seconds(queue.readyCheckMs)} to accept)` : "");
  // The server sets the rating of a ranked queue's players: the page sends none.
  show("rating-label", !queue.trustedPlayers);
  ratingInput.disabled = queue.trustedPlayers;
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
  const options: Record<string, unknown> = queue.trustedPlayers ? {} : { rating: Number(ratingInput.value) };
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

/** Both teams, where the game room's state has the demo game's `seats` (any other game: none). */
function renderGame(state: Partial<DemoGameState> | undefined, me: string): void {
  show("teams", Boolean(state?.seats));
  if (!state?.seats) return;
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
  $("game-match").textContent = seat.matchId;
  $("game-you").textContent = `You play side ${seat.side}${seat.zone ? ` in zone ${seat.zone}` : ""}.`;
  game.onStateChange((state) => renderGame(state, game.sessionId));
  // The full state may have arrived before the handler: draw what is there now.
  renderGame(game.state, game.sessionId);
  game.onLeave(() => ended("The game room closed."));
}

/** Follow the queue room `room`, joined (or rejoined) as `name` with `options`. */
function listen(room: Room, name: string, options: Record<string, unknown>): void {
  queueRoom = room;
  $("queue-note").textContent = `Queue ${name}; your session ${room.sessionId}.`;
  room.reconnection.maxRetries = 3; // a dead process does not come back: rejoin with the token instead
  room.onMessage("status", showStatus);
  room.onMessage("clients", () => undefined); // QueueRoom's count: the status says more
  room.onMessage("party", showParty);
  room.onMessage("match_found", (found: MatchFoundMessage) => showReadyCheck(room, found));
  // With a `penalty`, this player broke the match: its text says what that cost.
  room.onMessage("requeued", (m: RequeuedMessage) => {
    seated = false;
    show("ready-panel", false);
    $("queue-note").textContent =
      m.penalty?.text ?? `Your match fell through (${m.reason}): you wait again at your place.`;
  });
  room.onMessage("removed", (m: RemovedMessage) =>
    ended(m.penalty?.text ?? `You were removed from the queue (${m.reason}).`),
  );
  room.onMessage("seat", (seat: SeatMessage) => {
    seated = true;
    sessionStorage.removeItem(RESUME_KEY);
    takeSeat(seat).catch((error: Error) => ended(`Could not take the seat: ${error.message}`));
  });
  // With Redis: the token that keeps this player's place, and what became of the place.
  room.onMessage("resume", (m: ResumeMessage) => sessionStorage.setItem(RESUME_KEY, m.token));
  room.onMessage("resumed", (m: ResumedMessage) => {
    $("queue-note").textContent =
      `You are back at your place (waiting since ${new Date(m.enqueuedAt).toLocaleTimeString()}).`;
    $("queue-note").dataset.resumed = "true";
  });
  let retryInMs = 0;
  room.onMessage("handover", (m: HandoverMessage) => {
    retryInMs = m.retryInMs;
    $("queue-note").textContent = "The queue is moving to another server: you keep your place.";
  });
  // 4001 follows a handover; the SDK reports a dead process once its own reconnection failed.
  // 1000 (seated) and 4000 (left or removed) are ends, not losses.
  room.onLeave((code) => {
    if (seated || code === 1000 || code === 4000 || room !== queueRoom) return;
    setTimeout(() => void rejoin(name, options), retryInMs);
  });
}

/** Rejoin with the kept token; 503 ("retry") is retried without limit, other failures 5 times. */
async function rejoin(name: string, options: Record<string, unknown>, attempt = 0): Promise<void> {
  const token = sessionStorage.getItem(RESUME_KEY);
  try {
    listen(await client.joinOrCreate(name, token ? { ...options, resume: token } : options), name, options);
  } catch (error) {
    const code = (error as { code?: number }).code;
    if (code === 525)
      sessionStorage.removeItem(RESUME_KEY); // the place is gone: join anew
    else if (code !== 503 && attempt >= 5) return ended(`Lost the queue: ${(error as Error).message}`);
    setTimeout(() => void rejoin(name, options, attempt + 1), Math.min(5000, 250 * 2 ** attempt));
  }
}

/**
 * Join `queue`; one whose ratings come from the server signed in (anonymously: the SDK keeps the
 * token, so this browser keeps its account), signing in again once if the token is refused.
 */
async function joinAs(queue: QueueDescription, options: Record<string, unknown>): Promise<Room> {
  if (!queue.trustedPlayers) return client.joinOrCreate(queue.name, options);
  if (!client.auth.token) await client.auth.signInAnonymously();
  try {
    return await client.joinOrCreate(queue.name, options);
  } catch (error) {
    if (!/sign in/.test((error as Error).message)) throw error;
    await client.auth.signInAnonymously();
    return client.joinOrCreate(queue.name, options);
  }
}

form.addEventListener("change", refreshForm);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const queue = selectedQueue();
  if (!queue) return;
  joinError.textContent = "";
  joinButton.disabled = true;
  try {
    sessionStorage.removeItem(RESUME_KEY);
    const options = joinOptions(queue);
    listen(await joinAs(queue, options), queue.name, options);
    form.hidden = true;
    show("waiting-panel", true);
  } catch (error) {
    joinError.textContent = (error as Error).message;
  } finally {
    joinButton.disabled = false;
  }
});
$("leave").addEventListener("click", async () => {
  sessionStorage.removeItem(RESUME_KEY);
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
