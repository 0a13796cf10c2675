/** Markdown tables of the README and the guides, for the tests that hold them against the code. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

/** The rows of the first table after the line `heading` in `doc` (relative to the repository), each cell by its column's name. */
export function tableAfter(doc: string, heading: string): Record<string, string>[] {
  const text = readFileSync(resolve(ROOT, doc), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${doc}: no heading "${heading}"`);
  const lines = text.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const after = lines.findIndex((line, i) => i > first && !line.startsWith("|"));
  const rows = lines.slice(first, after < 0 ? undefined : after).map((line) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim()),
  );
  // Skip the |---| row under the header.
  const [header, , ...body] = rows;
  return body.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ""])));
}
