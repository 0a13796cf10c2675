/**
 * Every code block of the README and the guides either copies a file the tests run, or compiles
 * against the sources; every npm script a shell block names exists. A user tries these first.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  asInstalled,
  codeBlocks,
  documentationFiles,
  isRunOf,
  npmScriptsNamed,
  type CodeBlock,
} from "../helpers/doc-snippets.js";

const ROOT = resolve(import.meta.dirname, "../..");
const blocks: CodeBlock[] = documentationFiles(ROOT).flatMap((doc) => codeBlocks(ROOT, doc));
const tsBlocks = blocks.filter((b) => b.lang === "ts");

/**
 * Names the guides' fragments use without declaring (a route's `app`, a game room class, a
 * connected SDK client): declared once here, so each fragment compiles as its reader sees it.
 */
const AMBIENT = `
import type { Express } from "express";
import type { Client } from "@colyseus/sdk";
import { Room } from "colyseus";
declare global {
  const app: Express;
  class ArenaRoom extends Room {}
  const client: Client;
  const friendsClient: Client;
  const sharedCode: string;
  const queueName: string;
}
`;

describe("documentation code blocks", () => {
  it("finds the README's server and client among the blocks", () => {
    expect(tsBlocks.filter((b) => b.doc === "README.md" && b.copyOf).map((b) => b.copyOf)).toEqual([
      "example-server/minimal.ts",
      "example-client/minimal.ts",
    ]);
  });

  it.each(tsBlocks.filter((b) => b.copyOf).map((b) => [`${b.doc}:${b.line}`, b] as const))(
    "%s is a copy of the file the tests run",
    (_where, block) => {
      const file = asInstalled(readFileSync(join(ROOT, block.copyOf!), "utf8"));
      expect(isRunOf(block.code, file), `${block.doc}:${block.line} differs from ${block.copyOf}`).toBe(true);
    },
  );

  it("every other TypeScript block compiles against the sources", () => {
    const dir = join(ROOT, ".snippets");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const origin = new Map<string, CodeBlock>();
    tsBlocks
      .filter((b) => !b.copyOf)
      .forEach((block, i) => {
        const name = `block${i}.ts`;
        origin.set(name, block);
        writeFileSync(join(dir, name), `${block.code}\nexport {};\n`);
      });
    writeFileSync(join(dir, "ambient.d.ts"), AMBIENT);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: "../tsconfig.json",
        compilerOptions: {
          noEmit: true,
          rootDir: "..",
          // A reader's project need not demand \`override\`; the repository's own code does.
          noImplicitOverride: false,
          paths: {
            "colyseus-matchmaker": ["../src/index.ts"],
            "colyseus-matchmaker/engine": ["../src/engine.ts"],
            "colyseus-matchmaker/sim": ["../src/sim/index.ts"],
            "colyseus-matchmaker/web": ["../src/web/index.ts"],
            "colyseus-matchmaker/client": ["../src/client/index.ts"],
          },
        },
        include: ["*.ts"],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir, "--pretty", "false"],
      {
        encoding: "utf8",
      },
    );
    // Name each error by the Markdown file and line it comes from.
    const errors = tsc.stdout
      .split("\n")
      .filter((l) => l.includes("error TS"))
      .map((l) => {
        const m = /block(\d+)\.ts\((\d+),\d+\): (.*)$/.exec(l);
        if (!m) return l;
        const block = origin.get(`block${m[1]}.ts`)!;
        return `${block.doc}:${block.line + Number(m[2])}: ${m[3]}`;
      });
    rmSync(dir, { recursive: true, force: true });
    expect(errors).toEqual([]);
    expect(tsc.status).toBe(0);
  }, 120_000);

  it("every npm script a shell block names exists", () => {
    const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts);
    const named = blocks
      .filter((b) => b.lang === "sh")
      .flatMap((b) => npmScriptsNamed(b.code).map((s) => [b, s] as const));
    expect(named.length).toBeGreaterThan(0);
    for (const [block, script] of named)
      expect(scripts, `${block.doc}:${block.line} runs npm ${script}`).toContain(script);
  });
});
