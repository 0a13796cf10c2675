/**
 * Test files run in parallel, each booting servers on TEST_PORT_BASE + its own offsets: two files
 * with the same offset collide only when they happen to overlap, so check the offsets here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const TEST_DIR = fileURLToPath(new URL("..", import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("integration test ports", () => {
  it("no two test files use the same port offset", () => {
    const owner = new Map<number, string>();
    const clashes: string[] = [];
    for (const file of testFiles(TEST_DIR)) {
      const source = readFileSync(file, "utf8");
      const offsets = new Set([...source.matchAll(/testPort\((\d+)\)/g)].map((m) => Number(m[1])));
      const name = relative(TEST_DIR, file);
      for (const offset of offsets) {
        const first = owner.get(offset);
        if (first && first !== name) clashes.push(`${offset}: ${first} and ${name}`);
        else owner.set(offset, name);
      }
    }
    expect(owner.size).toBeGreaterThan(10);
    expect(clashes).toEqual([]);
  });
});
