/**
 * Malformed WebSocket frames whose texts all differ: Colyseus logs each with its stack, and the
 * error message quotes the frame's bytes. Before, 200 distinct frames wrote 101 stack traces (the
 * example server's aggregating logger told kinds apart by the message text); now a stack is
 * written once per place in the code that threw, and kinds blank what the sender chose.
 */
import { boot, type ColyseusTestServer } from "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import app from "../../example-server/app.config.js";
import { sendFrame } from "../helpers/join-from.js";
import { joinQueue, testPort, within } from "../helpers/sdk.js";

const PORT = testPort(151);
const FRAMES = 200;

/** Four letters for `i` (no digits: the old logger blanked those, so they never made new kinds). */
function word(i: number): string {
  let s = "";
  for (let k = 0; k < 4; k++, i = Math.floor(i / 26)) s += String.fromCharCode(97 + (i % 26));
  return s;
}

/** MessagePack by hand (the few shapes used here): a short string, a one-entry map, a pair, a uint32. */
const str = (s: string) => Buffer.concat([Buffer.from([0xa0 | s.length]), Buffer.from(s)]);
const uint32 = (n: number) => Buffer.from([0xce, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);

/**
 * The `i`th malformed frame: ROOM_DATA (13), message type "x", then a MessagePack value the sender
 * varies (a string, a map, a list, a number) followed by a byte too many ("Data read, but end of
 * buffer not reached …"), or cut short ("Unexpected end of MessagePack data").
 */
function frame(i: number): Buffer {
  const values = [
    str(`probe-${word(i)}`),
    Buffer.concat([Buffer.from([0x81]), str(word(i)), str(word(i + 1))]),
    Buffer.concat([Buffer.from([0x92]), str(word(i)), uint32(i)]),
    uint32(i * 7919),
    str(`${word(i)} ${word(i + 3)}`),
  ];
  const payload = values[i % values.length];
  const body = i % 10 === 9 ? payload.subarray(0, payload.length - 1) : Buffer.concat([payload, Buffer.from([0xc1])]);
  return Buffer.concat([Buffer.from([13, 0xa1, 0x78]), body]);
}

/** A duel player's socket that sends one frame; resolves with the code it is closed with. */
const send = (bytes: Buffer): Promise<number> => sendFrame(PORT, "duel", { rating: 1500, side: "A" }, bytes);

describe("distinct malformed frames", () => {
  let server: ColyseusTestServer;

  beforeAll(async () => {
    server = await boot(app, PORT);
  });
  afterAll(async () => {
    await server.shutdown();
  });

  it(`writes at most 2 stack traces for ${FRAMES} frames with distinct texts, and few lines`, async () => {
    const frames = Array.from({ length: FRAMES }, (_, i) => frame(i));
    expect(new Set(frames.map((f) => f.toString("hex"))).size).toBe(FRAMES);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    let lines: string[];
    try {
      const codes: number[] = [];
      for (const [i, bytes] of frames.entries()) codes.push(await within(send(bytes), 10_000, `sender ${i}`));
      expect(codes.filter((code) => code === 1000)).toEqual([]); // each sender disconnected
      lines = errors.mock.calls.map((args) => args.map(String).join(" "));
    } finally {
      errors.mockRestore();
    }
    const stacks = lines.filter((line) => /\n\s+at /.test(line));
    expect(stacks.length).toBeGreaterThan(0); // the first is told in full
    expect(stacks.length).toBeLessThanOrEqual(2); // one per place that threw: too many bytes, too few
    // One line per kind the senders could not multiply (the value's type, not its bytes).
    expect(lines.length).toBeLessThanOrEqual(10);
    if (process.env.SHOW_LOG_LINES) process.stderr.write(`${lines.map((line) => line.split("\n", 1)[0]).join("\n")}\n`);

    // The queue still serves honest players.
    const a = await joinQueue(server, "duel", { rating: 1500, side: "B" });
    const b = await joinQueue(server, "duel", { rating: 1510 });
    expect((await within(a.seat, 10_000, "seat a")).matchId).toBe((await within(b.seat, 10_000, "seat b")).matchId);
  });
});
