import { defineRoom } from "@colyseus/core";
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import config from "@colyseus/tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineQueue, type MatchmakerRoom } from "../../src/index.js";
import type { PartyMessage, SeatMessage } from "../../src/client/index.js";
import { join, joinError, type Player } from "../helpers/queue-client.js";
import { recordingRoom } from "../helpers/recording-room.js";
import { staysPending, testPort, within } from "../helpers/sdk.js";

const { room: PartyGameRoom, record: played } = recordingRoom();

describe("parties", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(
      config({
        rooms: {
          // Matching runs on joins and on `start` only, so each test controls when it happens.
          party_squad: defineQueue({ teamSize: 2, gameRoom: "party_game", tickMs: 60_000 }),
          party_trio: defineQueue({ teamSize: 3, gameRoom: "party_game", tickMs: 60_000, allowPartialParties: true }),
          party_duel: defineQueue({ teamSize: 1, gameRoom: "party_game", tickMs: 60_000 }),
          party_guess: defineQueue({ teamSize: 2, gameRoom: "party_game", tickMs: 60_000 }),
          party_game: defineRoom(PartyGameRoom),
        },
      }),
      testPort(10),
    );
  });
  afterAll(async () => {
    await server.shutdown();
  });

  const leaveAll = async (players: Player[]) => {
    for (const p of players) if (p.room.connection.isOpen) await p.room.leave();
  };

  it("a party of 2 and two solos in a 2v2: the party shares a team; nobody else can join it", async () => {
    played.matches.length = 0;
    const leader = await join(server, "party_squad", { rating: 1500, party: { size: 2 } });
    const created: PartyMessage = await within(leader.inbox.nth("party"), 5000, "the party code");
    expect(created).toMatchObject({ size: 2, members: 1, leader: true, status: "forming", event: "created" });
    expect(created.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const queue = server.getRoomById<MatchmakerRoom>(leader.room.roomId);
    // The party waits for its members: not in matching, no waiting entry.
    expect(queue.matchmaker.size).toBe(0);

    const solo1 = await join(server, "party_squad", { rating: 1000 });
    const solo2 = await join(server, "party_squad", { rating: 2000 });
    // A stranger cannot join without the code, and a wrong code is refused clearly.
    const wrong = await joinError(server, "party_squad", { rating: 1500, partyCode: "A".repeat(22) });
    expect(wrong).toEqual({ code: 525, message: "invalid join options: partyCode: no such party" });
    expect(await staysPending(solo1.inbox.nth("seat"), 100)).toBe(true);

    const member = await join(server, "party_squad", { rating: 1500, partyCode: created.code });
    const seats: SeatMessage[] = await within(
      Promise.all([leader, member, solo1, solo2].map((p) => p.inbox.nth("seat"))),
      5000,
      "four seats",
    );
    expect(new Set(seats.map((s) => s.roomId)).size).toBe(1);
    expect(seats[0]!.side).toBe(seats[1]!.side);
    expect(seats[2]!.side).toBe(seats[3]!.side);
    expect(seats[0]!.side).not.toBe(seats[2]!.side);
    // Both members were told when the party entered the queue.
    expect(member.inbox.all("party").at(-1)).toMatchObject({ members: 2, leader: false, status: "queued" });
    expect(leader.inbox.all("party").at(-1)).toMatchObject({ members: 2, leader: true, status: "queued" });

    // The game room sees one ticket for the party, distinct from both players' ids, on one team.
    expect(played.matches).toHaveLength(1);
    const partyTeam = played.matches[0]!.teams.find((t) =>
      t.players.some((p) => p.sessionId === leader.room.sessionId),
    )!;
    const partyPlayers = partyTeam.players.filter(
      (p) => p.sessionId !== solo1.room.sessionId && p.sessionId !== solo2.room.sessionId,
    );
    expect(partyPlayers.map((p) => p.sessionId).sort()).toEqual([leader.room.sessionId, member.room.sessionId].sort());
    expect(new Set(partyPlayers.map((p) => p.ticketId)).size).toBe(1);
    expect(partyPlayers[0]!.ticketId).toMatch(/^party-/);
    expect(partyPlayers[0]!.ticketId).not.toContain(created.code);
    await leaveAll([leader, member, solo1, solo2]);
  });

  it("refuses malformed party options with the field named", async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["party_squad", { rating: 1500, party: { size: 3 } }, "party.size: must be at most 2 (the team size)"],
      ["party_squad", { rating: 1500, party: { size: 1 } }, "party.size: must be at least 2"],
      ["party_squad", { rating: 1500, party: { size: 2, name: "x" } }, "party.name: unknown field"],
      ["party_squad", { rating: 1500, partyCode: "not a code" }, "partyCode: must be a party code"],
      ["party_squad", { rating: 1500, partyCode: 42 }, "partyCode: must be a party code"],
      [
        "party_squad",
        { rating: 1500, party: { size: 2 }, partyCode: "A".repeat(22) },
        "partyCode: cannot be combined with party",
      ],
      ["party_duel", { rating: 1500, party: { size: 2 } }, "party: this queue has no parties (1v1)"],
    ];
    for (const [queue, options, message] of cases) {
      expect(await joinError(server, queue, options)).toEqual({
        code: 525,
        message: `invalid join options: ${message}`,
      });
    }
    // A full party and a member choosing a side are refused too.
    const leader = await join(server, "party_squad", { rating: 1500, party: { size: 2 } });
    const { code } = await leader.inbox.nth("party");
    expect(await joinError(server, "party_squad", { rating: 1500, partyCode: code, side: "A" })).toEqual({
      code: 525,
      message: "invalid join options: side: a party's side is chosen by its leader",
    });
    const member = await join(server, "party_squad", { rating: 1500, partyCode: code });
    expect(await joinError(server, "party_squad", { rating: 1500, partyCode: code })).toEqual({
      code: 525,
      message: "invalid join options: partyCode: the party is full",
    });
    await leaveAll([leader, member]);
  });

  it("a member leaving takes the ticket out of matching and tells the others; the leader restarts it", async () => {
    played.matches.length = 0;
    const leader = await join(server, "party_trio", { rating: 1500, party: { size: 3 } });
    const { code } = await leader.inbox.nth("party");
    const queue = server.getRoomById<MatchmakerRoom>(leader.room.roomId);
    const m1 = await join(server, "party_trio", { rating: 1500, partyCode: code });
    const m2 = await join(server, "party_trio", { rating: 1500, partyCode: code });
    await vi.waitFor(() => expect(queue.matchmaker.size).toBe(1));
    expect(queue.state.waiting.size).toBe(1);

    await m2.room.leave();
    const notices = await within(
      Promise.all([leader, m1].map((p) => p.inbox.first("party", { event: "member_left" }))),
      5000,
      "member-left notices",
    );
    for (const notice of notices)
      expect(notice).toMatchObject({ event: "member_left", status: "held", members: 2, reason: "left" });
    expect(queue.matchmaker.size).toBe(0);
    expect(queue.state.waiting.size).toBe(0);

    // Solos arrive; the held party does not play until its leader restarts it.
    const solos: Player[] = [];
    for (const rating of [1400, 1500, 1600, 1700]) solos.push(await join(server, "party_trio", { rating }));
    expect(await staysPending(leader.inbox.nth("seat"), 150)).toBe(true);
    // Only the leader may restart; this queue allows starting with fewer members.
    expect(await m1.room.request("start")).toEqual({ ok: false, error: "only the party leader can start" });
    expect(await leader.room.request("start")).toEqual({ ok: true });
    const seats = await within(Promise.all([leader, m1, ...solos].map((p) => p.inbox.nth("seat"))), 5000, "six seats");
    expect(seats[0].side).toBe(seats[1].side);
    expect(played.matches).toHaveLength(1);
    // The member who left never got anything further.
    expect(m2.inbox.all("seat")).toHaveLength(0);
    await leaveAll([leader, m1, ...solos]);
  });

  it("the leader leaving hands the party to the next member, whose code still works", async () => {
    const leader = await join(server, "party_trio", { rating: 1500, party: { size: 3 } });
    const { code } = await leader.inbox.nth("party");
    const m1 = await join(server, "party_trio", { rating: 1500, partyCode: code });
    await leader.room.leave();
    expect(await within(m1.inbox.first("party", { event: "member_left" }), 5000, "member-left notice")).toMatchObject({
      event: "member_left",
      leader: true,
      members: 1,
    });
    const m2 = await join(server, "party_trio", { rating: 1500, partyCode: code });
    expect(await m2.inbox.nth("party")).toMatchObject({
      event: "member_joined",
      members: 2,
      leader: false,
      status: "forming",
    });
    await leaveAll([m1, m2]);
  });

  it("refuses party codes from an address that tried ten wrong ones, for the rest of the minute", async () => {
    const leader = await join(server, "party_guess", { rating: 1500, party: { size: 2 } });
    const { code } = (await within(leader.inbox.nth("party"), 5000, "the party code")) as PartyMessage;
    for (let i = 0; i < 10; i++) {
      const wrong = await joinError(server, "party_guess", { rating: 1500, partyCode: `${i}`.padStart(22, "B") });
      expect(wrong).toEqual({ code: 525, message: "invalid join options: partyCode: no such party" });
    }
    // The eleventh try is refused before the code is looked at: even the right one, from here, now.
    const limited = await joinError(server, "party_guess", { rating: 1500, partyCode: code });
    expect(limited?.code).toBe(525);
    expect(limited?.message).toMatch(
      /^invalid join options: partyCode: too many wrong party codes; try again in \d+ s$/,
    );
    // Joins without a code are not limited.
    const solo = await join(server, "party_guess", { rating: 1500 });
    await leaveAll([leader, solo]);
  });
});
