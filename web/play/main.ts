/**
 * The player page (`playPage()` of `colyseus-matchmaker/web`, `/play` on the example server):
 * join a queue alone, as a party's leader or with a party code; give the latencies a queue of
 * regions asks for; follow the wait; answer the ready check; land in the game room, told its side
 * (two teams) or its team (other shapes), and, in the demo game, see every team and the seats a
 * short-handed game left empty; in a ranked queue's game, see each team's chance, who won, and the
 * rating change the game room sends (the server's figures). The queue's protocol (retries, rejoining a lost queue with the resume
 * token, the seat) is the client helper's (`joinQueue` of `colyseus-matchmaker/client`).
 * Bundled for the browser with esbuild when the package is built (src/web/assets.ts).
 */
import { Client, type Room } from "@colyseus/sdk";
import {
  describeRatingChange,
  joinQueue,
  MatchmakingEnded,
  RATING_CHANGE_MESSAGE,
  type MatchFoundMessage,
  type Matchmaking,
  type PartyMessage,
  type RatingChangeMessage,
  type SeatMessage,
  type StatusMessage,
} from "../../src/client/index.js";
import type { QueueDescription, QueueShape } from "../../src/web/queues.js";

/**
 * The demo game room's state as the page reads it (example-server/DemoGameRoom.ts): a seat's
 * `side` ("" without sides) and, where the game records it, its team index; the seats a
 * short-handed game left empty, where the game records them; in a rated game, each team's chance to
 * win and, once drawn, the winner's team index (-1 before).
 */
interface DemoSeat {
  sessionId: string;
  side: string;
  team?: number;
  rating: number;
  arrived: boolean;
}
interface DemoGameState {
  matchId: string;
  seats: { forEach(callback: (seat: DemoSeat, id: string) => void): void };
  emptySeats?: number;
  rated?: boolean;
  winChances?: { forEach(callback: (chance: number, team: number) => void): void };
  winner?: number;
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
const partySizeSelect = $<HTMLSelectElement>("party-size");
const codeInput = $<HTMLInputElement>("party-code-input");
const joinButton = $<HTMLButtonElement>("join");
const joinError = $("join-error");

const endpoint = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;
const client = new Client(endpoint);

let queues: QueueDescription[] = [];
/** The queue the form's zone and latency inputs were made for. */
let formQueue: string | undefined;
/** This player's way through the queue, once the form is sent. */
let matchmaking: Matchmaking<DemoGameState> | undefined;
let readyTimer: ReturnType<typeof setInterval> | undefined;
let waitedTimer: ReturnType<typeof setInterval> | undefined;

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

/** When a game starts short-handed, in words (nothing for a queue whose games start full). */
function shortHanded(shape: QueueShape): string {
  if (shape.minPlayers === shape.players) return "";
  const after = shape.shortHandedAfterMs === null ? "a wait" : seconds(shape.shortHandedAfterMs);
  return `, ${shape.players} players at once, or after ${after} of waiting as many as there are (at least ${shape.minPlayers})`;
}

function describe(queue: QueueDescription): string {
  const latency = queue.latency;
  const { shape } = queue;
  return (
    `${shape.text}${shortHanded(shape)}, policy ${queue.policy}, ratings ${queue.rating.min} to ${queue.rating.max}` +
    (queue.trustedPlayers ? ", your rating comes from your account (you sign in)" : "") +
    (queue.ranked ? ", ranked: each game's result moves your rating" : "") +
    (queue.readyCheckMs !== null ? `, ready check (${seconds(queue.readyCheckMs)} to accept)` : "") +
    (latency
      ? `, regions by latency: you wait in every region you reach within ${latency.maxMs} ms` +
        (latency.growthPerSecond > 0
          ? ` (${latency.growthPerSecond} ms more per second waited${latency.capMs === null ? "" : `, up to ${latency.capMs} ms`})`
          : "")
      : "")
  );
}

/** Show the choices the selected queue and mode allow. */
function refreshForm(): void {
  const queue = selectedQueue();
  if (!queue) return;
  $("queue-info").textContent = describe(queue);
  // The server sets the rating of a ranked queue's players: the page sends none.
  show("rating-label", !queue.trustedPlayers);
  ratingInput.disabled = queue.trustedPlayers;
  const parties = queue.shape.maxParty > 1;
  show("mode-create-label", parties);
  show("mode-join-label", parties);
  if (!parties) form.querySelector<HTMLInputElement>('input[name="mode"][value="solo"]')!.checked = true;
  const joining = mode() === "join";
  show("code-row", joining);
  // Sides exist only in a game of two teams. Party members take the leader's side and zones;
  // each player gives its own latencies.
  show("side-label", queue.shape.sides);
  $("choices-legend").textContent = queue.shape.sides ? "Side and zone" : "Zone";
  show("choices", !joining && (queue.shape.sides || queue.zones.length > 0));
  show("latency-set", queue.latency !== null);
  if (formQueue === queue.name) return; // the inputs below keep what the player set
  formQueue = queue.name;
  makePartySizes(queue.shape);
  makeZoneInputs(queue);
  makeLatencyInputs(queue);
}

/** Party sizes from 2 to the shape's limit (a team, or a whole free-for-all); a full team first. */
function makePartySizes(shape: QueueShape): void {
  const sizes = Array.from({ length: Math.max(0, shape.maxParty - 1) }, (_, i) => i + 2);
  partySizeSelect.replaceChildren(
    ...sizes.map((size) => {
      const option = document.createElement("option");
      option.value = option.textContent = String(size);
      return option;
    }),
  );
  // A team game's party is usually a whole team; a free-for-all's, a few friends.
  partySizeSelect.value = String(shape.kind === "free-for-all" ? 2 : shape.maxParty);
}

function makeZoneInputs(queue: QueueDescription): void {
  const zonesRow = $("zones-row");
  zonesRow.replaceChildren();
  if (queue.zones.length === 0) return;
  zonesRow.append(
    queue.latency
      ? "Zones (none ticked: every region you reach):"
      : "Zones (none ticked: every zone your rating may enter):",
  );
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

/** Near one region (30 ms there, 120 ms to the others), or between them all (70 ms each). */
function latencyPresets(zones: readonly string[]): Array<[string, Record<string, number>]> {
  const near = zones.map((zone): [string, Record<string, number>] => [
    `near ${zone}`,
    Object.fromEntries(zones.map((z) => [z, z === zone ? 30 : 120])),
  ]);
  return [...near, ["between them", Object.fromEntries(zones.map((z) => [z, 70]))]];
}

/**
 * One latency input per region, and places to fill them from. The page talks to this one server
 * only, so it cannot measure a latency to each region: the player says it (a game's client would
 * ping one endpoint per region). What it can measure, the round trip to this server, it shows.
 */
function makeLatencyInputs(queue: QueueDescription): void {
  const row = $("latency-row");
  const presets = $("latency-presets");
  row.replaceChildren();
  presets.replaceChildren();
  if (!queue.latency) return;
  const inputs = queue.zones.map((zone) => {
    const input = document.createElement("input");
    input.type = "number";
    input.name = "latency";
    input.dataset.zone = zone;
    input.min = "0";
    input.max = "60000";
    input.step = "1";
    input.required = true;
    const label = document.createElement("label");
    label.append(`${zone} `, input, " ms");
    row.append(label);
    return input;
  });
  const fill = (values: Record<string, number>) => inputs.forEach((i) => (i.value = String(values[i.dataset.zone!])));
  const choices = latencyPresets(queue.zones);
  presets.append("From: ");
  for (const [name, values] of choices) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name;
    button.onclick = () => fill(values);
    presets.append(button, " ");
  }
  fill(choices[0]![1]);
  $("latency-measured").textContent = "measuring…";
  client
    .getLatency({ pingCount: 3 })
    .then((ms) => ($("latency-measured").textContent = `${Math.round(ms)} ms`))
    .catch(() => ($("latency-measured").textContent = "could not be measured"));
}

function joinOptions(queue: QueueDescription): Record<string, unknown> {
  const options: Record<string, unknown> = queue.trustedPlayers ? {} : { rating: Number(ratingInput.value) };
  if (queue.latency) {
    const inputs = [...form.querySelectorAll<HTMLInputElement>('input[name="latency"]')];
    options.latencies = Object.fromEntries(inputs.map((input) => [input.dataset.zone!, Number(input.value)]));
  }
  if (mode() === "join") {
    options.partyCode = codeInput.value.trim();
    return options;
  }
  if (mode() === "create") options.party = { size: Number(partySizeSelect.value) };
  if (queue.shape.sides && sideSelect.value) options.side = sideSelect.value;
  const zones = [...form.querySelectorAll<HTMLInputElement>('input[name="zone"]:checked')].map((box) => box.value);
  if (zones.length > 0) options.zones = zones;
  return options;
}

/** The end of this visit: a failure (in red), or a game that ended as it should. */
function ended(message: string, failure = true): void {
  clearInterval(waitedTimer);
  const p = $("ended");
  p.textContent = message;
  p.className = failure ? "error" : "note";
  p.hidden = false;
}

function note(text: string): void {
  $("queue-note").textContent = text;
}

function showStatus(status: StatusMessage, waitedMs: number): void {
  $("waited").textContent = seconds(waitedMs);
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

function showReadyCheck(queue: Matchmaking<DemoGameState>, found: MatchFoundMessage): void {
  show("ready-panel", true);
  $("ready-players").textContent = String(found.players);
  $("ready-state").textContent = "";
  const deadline = Date.now() + found.timeoutMs;
  const tick = () => ($("ready-left").textContent = String(Math.max(0, Math.ceil((deadline - Date.now()) / 1000))));
  tick();
  clearInterval(readyTimer);
  readyTimer = setInterval(tick, 250);
  const answer = (type: "accept" | "decline") => {
    if (type === "accept") queue.accept();
    else queue.decline();
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

function backInQueue(): void {
  clearInterval(readyTimer);
  show("ready-panel", false);
  show("waiting-panel", true);
}

/** Where the player plays, in words: its side (two teams), its team of T, or its place in a free-for-all. */
function placeOf(seat: SeatMessage, shape: QueueShape): string {
  const zone = seat.zone ? ` in zone ${seat.zone}` : "";
  if (seat.side) return `You play side ${seat.side}${zone}.`;
  // The team index (0 first) is what the game room's seat options carry.
  const index = `team index ${seat.team}`;
  if (shape.kind === "free-for-all")
    return `You play for yourself, player ${seat.team + 1} of ${shape.players} (${index})${zone}.`;
  return `You play in team ${seat.team + 1} of ${shape.teams} (${index})${zone}.`;
}

/** One list of the game: a side, a team, or every player of a free-for-all. */
function teamList(id: string, title: string): HTMLUListElement {
  const box = document.createElement("div");
  box.className = "team";
  box.id = id;
  const heading = document.createElement("h3");
  heading.textContent = title;
  const list = document.createElement("ul");
  box.append(heading, list);
  $("teams").append(box);
  return list;
}

/** The lists the game is drawn in, by the key `listKey` gives a seat. */
function gameLists(shape: QueueShape, byTeam: boolean): Map<string, HTMLUListElement> {
  $("teams").replaceChildren();
  if (shape.sides) return new Map(["A", "B"].map((side) => [side, teamList(`team-${side}`, `Side ${side}`)]));
  // More teams, where the game records each seat's team: one list per team.
  if (shape.kind === "teams" && byTeam)
    return new Map(
      Array.from({ length: shape.teams }, (_, i) => [String(i), teamList(`team-${i}`, `Team ${i + 1}`)] as const),
    );
  return new Map([["all", teamList("team-all", shape.kind === "free-for-all" ? "Players" : "Every team")]]);
}

function listKey(seat: DemoSeat, shape: QueueShape, byTeam: boolean): string {
  if (shape.sides) return seat.side === "B" ? "B" : "A";
  return shape.kind === "teams" && byTeam ? String(seat.team) : "all";
}

/** An empty seat's line in a list. */
function emptySeat(): HTMLLIElement {
  const item = document.createElement("li");
  item.className = "empty";
  item.dataset.empty = "true";
  item.textContent = "empty seat";
  return item;
}

/**
 * Every side or team, where the game room's state has the demo game's `seats` (any other game:
 * none), and the seats a short-handed game left empty, where it has `emptySeats`.
 */
function renderGame(state: Partial<DemoGameState> | undefined, me: string, shape: QueueShape): void {
  show("teams", Boolean(state?.seats));
  if (!state?.seats) return;
  let byTeam = true;
  state.seats.forEach((seat) => (byTeam &&= typeof seat.team === "number"));
  const lists = gameLists(shape, byTeam);
  state.seats.forEach((seat, id) => {
    const item = document.createElement("li");
    const team = shape.kind === "free-for-all" && typeof seat.team === "number" ? `player ${seat.team + 1}, ` : "";
    item.textContent = `${id === me ? "you" : id} (${team}rating ${seat.rating})${seat.arrived ? "" : " (joining…)"}`;
    item.dataset.sessionId = id;
    item.dataset.arrived = String(seat.arrived);
    if (typeof seat.team === "number") item.dataset.team = String(seat.team);
    if (id === me) item.className = "you";
    lists.get(listKey(seat, shape, byTeam))?.append(item);
  });
  // A short-handed game's empty seats: a free-for-all's in its one list, a team game's shared
  // equally by its teams (every team starts with the same number).
  const empty = state.emptySeats ?? 0;
  show("empty-seats", empty > 0);
  $("empty-seats").textContent =
    empty > 0 ? `${empty} of ${shape.players} seats empty: the game started short-handed.` : "";
  const perList = lists.size > 1 ? Math.floor(empty / lists.size) : empty;
  for (const list of lists.values()) for (let i = 0; i < perList; i++) list.append(emptySeat());
}

/** A team as the page names it: its side (two teams), the player (a free-for-all), or its number. */
function teamName(team: number, shape: QueueShape): string {
  if (shape.sides) return `side ${team === 0 ? "A" : "B"}`;
  return shape.kind === "free-for-all" ? `player ${team + 1}` : `team ${team + 1}`;
}

const percent = (chance: number) => `${Math.round(chance * 100)}%`;

/** A rated game's play, where the game's state has it: each team's chance by the ratings, then the winner. */
function renderPlay(state: Partial<DemoGameState> | undefined, shape: QueueShape): void {
  const line = $("game-play");
  line.hidden = !state?.rated;
  if (!state?.rated) return;
  const chances: number[] = [];
  state.winChances?.forEach((chance, team) => (chances[team] = chance));
  const winner = state.winner ?? -1;
  line.dataset.winner = String(winner);
  if (winner >= 0) {
    const name = teamName(winner, shape);
    line.textContent = `${name[0]!.toUpperCase()}${name.slice(1)} won (its chance by the ratings was ${percent(chances[winner] ?? 0)}).`;
    return;
  }
  const odds = chances.map((chance, team) => `${teamName(team, shape)} ${percent(chance)}`).join(", ");
  line.textContent = `A ranked game: when its play time is over, the winner is drawn by a coin weighted by the ratings (${odds}).`;
}

/** The game room's word on a rated game: won or lost, and the rating before and after. */
function showRatingChange(change: RatingChangeMessage): void {
  show("result-panel", true);
  const panel = $("result-panel");
  panel.dataset.outcome = change.outcome;
  panel.dataset.before = String(change.before.rating);
  panel.dataset.after = String(change.after.rating);
  $("result-title").textContent = { won: "You won", lost: "You lost", draw: "A draw" }[change.outcome];
  $("rating-change").textContent = describeRatingChange(change);
}

/** In the game room: the panel with the side or team, the zone and, in the demo game, every team. */
function enterGame(game: Room<unknown, DemoGameState>, seat: SeatMessage, queue: QueueDescription): void {
  clearInterval(waitedTimer);
  show("game-panel", true);
  const panel = $("game-panel");
  panel.dataset.roomId = game.roomId;
  if (seat.side) panel.dataset.side = seat.side;
  panel.dataset.team = String(seat.team);
  $("game-match").textContent = seat.matchId;
  $("game-you").textContent = placeOf(seat, queue.shape);
  const render = (state: Partial<DemoGameState> | undefined) => {
    renderGame(state, game.sessionId, queue.shape);
    renderPlay(state, queue.shape);
  };
  game.onStateChange(render);
  // The full state may have arrived before the handler: draw what is there now.
  render(game.state);
  let over = false;
  game.onMessage(RATING_CHANGE_MESSAGE, (change: RatingChangeMessage) => {
    over = true;
    showRatingChange(change);
  });
  game.onLeave(() => (over ? ended("The game is over: the game room closed.", false) : ended("The game room closed.")));
}

/**
 * Join `queue` and follow it to the game room. A join refused before the player was in the queue
 * is said on the form; a ranked queue's "sign in" refusal signs in again, once.
 */
function play(queue: QueueDescription, options: Record<string, unknown>, signedInAgain = false): void {
  const joining = joinQueue<DemoGameState>(client, queue.name, options);
  matchmaking = joining;
  let inQueue = false;
  joining.on("joined", ({ room, rejoin }) => {
    inQueue = true;
    form.hidden = true;
    show("waiting-panel", true);
    if (!rejoin) note(`Queue ${queue.name}; your session ${room.sessionId}.`);
    else note(`Back in queue ${queue.name}; your session ${room.sessionId}.`);
    clearInterval(waitedTimer);
    waitedTimer = setInterval(() => ($("waited").textContent = seconds(joining.waitedMs())), 1000);
  });
  joining.on("status", (status) => showStatus(status, joining.waitedMs()));
  joining.on("party", showParty);
  joining.on("matchFound", (found) => showReadyCheck(joining, found));
  joining.on("matched", () => {
    clearInterval(readyTimer);
    show("ready-panel", false);
    show("waiting-panel", false);
  });
  joining.on("seatFailed", (error) => {
    backInQueue();
    note(`Could not enter the game (${error.message}): the queue puts you back.`);
  });
  // With a `penalty`, this player broke the match: its text says what that cost.
  joining.on("requeued", (back) => {
    backInQueue();
    note(back.penalty?.text ?? `Your match fell through (${back.reason}): you wait again at your place.`);
  });
  joining.on("resumed", (resumed) => {
    note(`You are back at your place (waiting since ${new Date(resumed.enqueuedAt).toLocaleTimeString()}).`);
    $("queue-note").dataset.resumed = "true";
  });
  joining.on("reconnecting", ({ handover }) =>
    note(
      handover
        ? "The queue is moving to another server: you keep your place."
        : "Lost the connection to the queue: joining again.",
    ),
  );
  joining.on("retrying", (retry) => {
    const text = retry.placeGone
      ? "Your place in the queue is gone: joining anew."
      : `${retry.message} (trying again in ${seconds(retry.inMs)})`;
    if (retry.placeGone) $("queue-note").dataset.placeGone = "true";
    if (inQueue) note(text);
    else joinError.textContent = text;
  });
  joining.game.then(
    (game) => enterGame(game, joining.seat!, queue),
    async (error: unknown) => {
      if (!(error instanceof MatchmakingEnded)) return ended(`Could not play: ${String(error)}`);
      if (error.reason === "left") return;
      if (inQueue) return ended(error.reason === "removed" ? error.message : `Out of the queue: ${error.message}`);
      // Refused before the player was in the queue: say so on the form.
      if (queue.trustedPlayers && !signedInAgain && /sign in/.test(error.message)) {
        await client.auth.signInAnonymously();
        return play(queue, options, true);
      }
      joinError.textContent = error.message;
      joinButton.disabled = false;
    },
  );
}

form.addEventListener("change", refreshForm);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const queue = selectedQueue();
  if (!queue) return;
  joinError.textContent = "";
  joinButton.disabled = true;
  try {
    // A queue whose ratings come from the server: sign in (anonymously; the SDK keeps the token,
    // so this browser keeps its account).
    if (queue.trustedPlayers && !client.auth.token) await client.auth.signInAnonymously();
    play(queue, joinOptions(queue));
  } catch (error) {
    joinError.textContent = (error as Error).message;
    joinButton.disabled = false;
  }
});
$("leave").addEventListener("click", async () => {
  await matchmaking?.leave();
  location.reload();
});

async function loadQueues(): Promise<void> {
  const response = await fetch("queues.json");
  queues = ((await response.json()) as { queues: QueueDescription[] }).queues.filter((q) => !q.roles);
  queueSelect.replaceChildren(
    ...queues.map((q) => {
      const option = document.createElement("option");
      option.value = q.name;
      option.textContent = `${q.name} (${q.shape.text}${q.readyCheckMs !== null ? ", ready check" : ""}${q.latency ? ", regions by latency" : q.zones.length > 0 ? ", zones" : ""})`;
      return option;
    }),
  );
  const wanted = new URLSearchParams(location.search).get("queue");
  if (wanted && queues.some((q) => q.name === wanted)) queueSelect.value = wanted;
  refreshForm();
  document.body.dataset.ready = "true";
}

loadQueues().catch((error: Error) => ended(`Could not load the queues: ${error.message}`));
