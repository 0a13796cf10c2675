/**
 * Limits that cannot be spoofed (issue 32): the party-code limit and the join rate limit key on
 * the connection's own address; forwarding headers count only from a trusted proxy, and both
 * limits outlive the queue room. Real SDK clients (and a raw join from 127.0.0.2, as a second
 * address) against a server on 127.0.0.1.
 */
import { defineRoom, matchMaker, Room } from "@colyseus/core";
import { Client as SdkClient, type Room as SdkRoom } from "@colyseus/sdk";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineQueue, type MatchmakerRoom } from "../../src/index.js";
import type { PartyMessage } from "../../src/client/index.js";
import { joinFrom } from "../helpers/join-from.js";
import { testPort, within } from "../helpers/sdk.js";

const PORT = testPort(110);
/** The second address of this machine the joins below come from (the first is 127.0.0.1). */
const ELSEWHERE = "127.0.0.2";
const WRONG_CODES_ALLOWED = 10;
const TOO_MANY_CODES = /^invalid join options: partyCode: too many wrong party codes; try again in \d+ s$/;
const TOO_MANY_JOINS = /^too many joins from your address; try again in \d+ s$/;

class AddressGameRoom extends Room {}

const partyQueue = () => defineQueue({ teamSize: 2, gameRoom: "address_game", tickMs: 60_000 });

/** An SDK client from 127.0.0.1 whose every request carries `headers`. */
const clientWith = (headers: Record<string, string> = {}) => new SdkClient(`http://127.0.0.1:${PORT}`, { headers });

type Outcome = { joined: true; room: SdkRoom } | { joined: false; code?: number; message: string };

/** Join and report the outcome (a joined room stays joined: leave it). */
async function attempt(client: SdkClient, queue: string, options: Record<string, unknown>): Promise<Outcome> {
  try {
    const room = await client.joinOrCreate(queue, options);
    room.onMessage("*", () => undefined);
    return { joined: true, room };
  } catch (e) {
    const error = e as Error & { code?: number };
    return { joined: false, code: error.code, message: error.message };
  }
}

/** Open a party of 2 on `queue` from 127.0.0.1; resolves with its room and code. */
async function openParty(queue: string): Promise<{ room: SdkRoom; code: string }> {
  const room = await clientWith().joinOrCreate(queue, { rating: 1500, party: { size: 2 } });
  room.onMessage("*", () => undefined);
  const created = new Promise<PartyMessage>((resolve) => room.onMessage("party", resolve));
  const { code } = await within(created, 5000, "the party code");
  return { room, code };
}

const wrongCode = (i: number) => `${i}`.padStart(22, "W");

async function disposed(roomId: string): Promise<void> {
  await vi.waitFor(() => expect(matchMaker.getLocalRoomById(roomId)).toBeUndefined(), { timeout: 5000 });
}

describe("limits keyed on the connection's own address", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          guess_real_ip: partyQueue(),
          guess_forwarded_for: partyQueue(),
          guess_client_ip: partyQueue(),
          guess_disposal: partyQueue(),
          // The test's own connections (from 127.0.0.1) play the trusted proxy, X-Forwarded-For naming its clients.
          join_flood: defineQueue({
            teamSize: 1,
            gameRoom: "address_game",
            tickMs: 60_000,
            trustedProxies: ["127.0.0.1"],
            joinRateLimit: { perSecond: 0.01, burst: 3 },
          }),
          address_game: defineRoom(AddressGameRoom),
        },
      }),
      PORT,
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  for (const [header, queue] of [
    ["X-Real-IP", "guess_real_ip"],
    ["X-Forwarded-For", "guess_forwarded_for"],
    ["X-Client-IP", "guess_client_ip"],
  ] as const) {
    it(`a rotated ${header} neither lifts the party-code limit nor locks out the address it names`, async () => {
      const party = await openParty(queue);
      const outcomes: Outcome[] = [];
      // A fresh address in the header for every wrong code: they all count against 127.0.0.1.
      for (let i = 0; i < WRONG_CODES_ALLOWED; i++)
        outcomes.push(
          await attempt(clientWith({ [header]: `198.51.100.${i}` }), queue, { rating: 1500, partyCode: wrongCode(i) }),
        );
      expect(outcomes.map((o) => !o.joined && o.message)).toEqual(
        Array(WRONG_CODES_ALLOWED).fill("invalid join options: partyCode: no such party"),
      );
      // Then the header names the victim's address (both ways it can be written), then a fresh one with the right code.
      for (const named of [ELSEWHERE, `::ffff:${ELSEWHERE}`, "203.0.113.77"]) {
        const limited = await attempt(clientWith({ [header]: named }), queue, {
          rating: 1500,
          partyCode: named === "203.0.113.77" ? party.code : wrongCode(99),
        });
        expect(limited).toMatchObject({ joined: false, code: 525, message: expect.stringMatching(TOO_MANY_CODES) });
      }
      // The victim, from the address the header named, joins with the right code.
      const victim = await joinFrom(PORT, ELSEWHERE, queue, { rating: 1500, partyCode: party.code });
      expect(victim.joined).toBe(true);
      const queueRoom = server.getRoomById<MatchmakerRoom>(party.room.roomId);
      expect([...queueRoom.session.parties.all()].map((p) => p.members.length)).toEqual([2]);
      expect(queueRoom.getMetrics().partyCodesLimited).toBe(3);
      if (victim.joined) victim.close();
      await party.room.leave();
    });
  }

  it("the party-code limit outlives the queue room: an address that tried ten wrong codes is refused by the next room", async () => {
    const first = await openParty("guess_disposal");
    for (let i = 0; i < WRONG_CODES_ALLOWED; i++) {
      const wrong = await attempt(clientWith(), "guess_disposal", { rating: 1500, partyCode: wrongCode(i) });
      expect(wrong).toMatchObject({ joined: false, message: "invalid join options: partyCode: no such party" });
    }
    await first.room.leave();
    await disposed(first.room.roomId);

    const second = await openParty("guess_disposal");
    expect(second.room.roomId).not.toBe(first.room.roomId);
    const limited = await attempt(clientWith(), "guess_disposal", { rating: 1500, partyCode: second.code });
    expect(limited).toMatchObject({ joined: false, code: 525, message: expect.stringMatching(TOO_MANY_CODES) });
    // Another address is not held back.
    const other = await joinFrom(PORT, ELSEWHERE, "guess_disposal", { rating: 1500, partyCode: second.code });
    expect(other.joined).toBe(true);
    if (other.joined) other.close();
    await second.room.leave();
  });

  it("the join rate limit refuses a flood from one address (429, when to retry), not the others, and outlives the queue room", async () => {
    const flooder = clientWith({ "X-Forwarded-For": "1.1.1.1, 198.51.100.20" });
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 8; i++) {
      const outcome = await attempt(flooder, "join_flood", { rating: 1500 });
      outcomes.push(outcome);
      if (outcome.joined) await outcome.room.leave();
    }
    // burst 3, then one join per 100 s: exactly three get in.
    expect(outcomes.filter((o) => o.joined)).toHaveLength(3);
    for (const o of outcomes.slice(3))
      expect(o).toMatchObject({ joined: false, code: 429, message: expect.stringMatching(TOO_MANY_JOINS) });

    // Another client of the proxy joins; so does a direct client of this machine (loopback is not rate-limited).
    // Both on side A, so they are not matched: a match's open seats would keep the queue room alive.
    const other = await attempt(clientWith({ "X-Forwarded-For": "198.51.100.21" }), "join_flood", {
      rating: 1500,
      side: "A",
    });
    const local = await attempt(clientWith(), "join_flood", { rating: 1500, side: "A" });
    expect(other.joined && local.joined).toBe(true);
    const roomId = other.joined ? other.room.roomId : "";
    expect(server.getRoomById<MatchmakerRoom>(roomId).getMetrics().joinsRateLimited).toBe(5);
    if (other.joined) await other.room.leave();
    if (local.joined) await local.room.leave();
    await disposed(roomId);

    // A new queue room: the flooder is still over its rate.
    const again = await attempt(flooder, "join_flood", { rating: 1500 });
    expect(again).toMatchObject({ joined: false, code: 429, message: expect.stringMatching(TOO_MANY_JOINS) });
    const fresh = await attempt(clientWith({ "X-Forwarded-For": "198.51.100.22" }), "join_flood", { rating: 1500 });
    expect(fresh.joined).toBe(true);
    if (fresh.joined) {
      expect(fresh.room.roomId).not.toBe(roomId);
      expect(server.getRoomById<MatchmakerRoom>(fresh.room.roomId).getMetrics().joinsRateLimited).toBe(6);
      await fresh.room.leave();
    }
  });
});
