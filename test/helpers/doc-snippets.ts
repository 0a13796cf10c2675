/**
 * Code blocks of the README and the guides in docs/, for test/docs/snippets.test.ts.
 *
 * A ```ts block right after `<!-- snippet: PATH -->` is a copy of the runnable file PATH (a run
 * of its lines, with "colyseus-matchmaker" for the relative import of src/,
 * "colyseus-matchmaker/web" for src/web/ and "colyseus-matchmaker/client" for src/client/); every other ```ts
 * block is compiled on its own against the sources.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface CodeBlock {
  /** The Markdown file, relative to the repository. */
  readonly doc: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  /** The runnable file this block copies, when it is marked so. */
  readonly copyOf?: string;
}

const SNIPPET_MARK = /^<!--\s*snippet:\s*(\S+)\s*-->$/;

/** The README, every Markdown guide under docs/ and the contributors' records under lab/. */
export function documentationFiles(root: string): string[] {
  const markdownIn = (dir: string) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `${dir}/${name}`)
      .sort();
  // lab/ holds the contributors' records: their reproduce commands must still name real scripts.
  return ["README.md", ...markdownIn("docs"), ...markdownIn("lab")];
}

/** Every fenced block of one Markdown file, with its language and the snippet mark above it. */
export function codeBlocks(root: string, doc: string): CodeBlock[] {
  const lines = readFileSync(join(root, doc), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    if (end < 0) throw new Error(`${doc}:${i + 1}: unclosed code block`);
    let above = i - 1;
    while (above >= 0 && lines[above].trim() === "") above--;
    const mark = above >= 0 ? SNIPPET_MARK.exec(lines[above].trim()) : null;
    blocks.push({
      doc,
      line: i + 1,
      lang: open[1],
      code: lines.slice(i + 1, end).join("\n"),
      ...(mark ? { copyOf: mark[1] } : {}),
    });
    i = end;
  }
  return blocks;
}

/** The runnable file as a user's copy reads: the package's name for the relative import of src/. */
export function asInstalled(source: string): string {
  return source
    .replace(/"(\.\.\/)+src\/index\.js"/g, '"colyseus-matchmaker"')
    .replace(/"(\.\.\/)+src\/web\/index\.js"/g, '"colyseus-matchmaker/web"')
    .replace(/"(\.\.\/)+src\/client\/index\.js"/g, '"colyseus-matchmaker/client"');
}

/** Whether `block`'s lines stand, in order and together, in `file` (trailing blanks ignored). */
export function isRunOf(block: string, file: string): boolean {
  const trim = (s: string) => s.split("\n").map((l) => l.trimEnd());
  const want = trim(block);
  const have = trim(file);
  for (let start = 0; start + want.length <= have.length; start++) {
    if (want.every((l, k) => have[start + k] === l)) return true;
  }
  return false;
}

/** The `npm run NAME` and `npm start`/`npm test` commands a shell block names. */
export function npmScriptsNamed(code: string): string[] {
  const names: string[] = [];
  for (const m of code.matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g)) names.push(m[1] ?? m[2]);
  return names;
}
