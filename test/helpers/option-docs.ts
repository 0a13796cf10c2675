/**
 * The TSDoc of every queue option as an editor shows it: read with the TypeScript checker from
 * the type users write (`MatchmakerRoomOptions`, inferred from src/options/fields.ts), so what is
 * checked is what a user hovers, not a comment that might sit elsewhere.
 */
import { resolve } from "node:path";
import ts from "typescript";

/** What an editor shows for one option: its TSDoc text and its `@defaultValue`, if any. */
export interface OptionDoc {
  readonly path: string;
  readonly text: string;
  readonly defaultValue?: string;
}

const ROOT = resolve(import.meta.dirname, "../..");
const MODULE = resolve(ROOT, "src/options/queue-options.ts");

/** The docs of `MatchmakerRoomOptions`' properties, and of their fields where `descend(path)` says so. */
export function optionDocs(descend: (path: string) => boolean): Map<string, OptionDoc> {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  )!;
  const program = ts.createProgram({ rootNames: [MODULE], options: { ...config.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(MODULE)!;
  const alias = source.statements.find(
    (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === "MatchmakerRoomOptions",
  );
  if (!alias) throw new Error("src/options/queue-options.ts: no type MatchmakerRoomOptions");
  const docs = new Map<string, OptionDoc>();

  const visit = (type: ts.Type, prefix: string) => {
    for (const symbol of checker.getPropertiesOfType(type)) {
      const path = prefix + symbol.name;
      const text = ts.displayPartsToString(symbol.getDocumentationComment(checker));
      const tag = symbol.getJsDocTags(checker).find((t) => t.name === "defaultValue");
      const defaultValue = tag?.text ? ts.displayPartsToString(tag.text) : undefined;
      docs.set(path, { path, text, ...(defaultValue !== undefined ? { defaultValue } : {}) });
      const fieldType = checker.getNonNullableType(checker.getTypeOfSymbol(symbol));
      for (const member of fieldType.isUnion() ? fieldType.types : [fieldType]) {
        if (descend(path) && member.getProperties().length > 0 && !checker.isArrayType(member))
          visit(member, `${path}.`);
        if (descend(`${path}[]`) && checker.isArrayType(member)) {
          const item = checker.getTypeArguments(member as ts.TypeReference)[0];
          visit(checker.getNonNullableType(item), `${path}[].`);
        }
      }
    }
  };
  visit(checker.getTypeAtLocation(alias.name), "");
  return docs;
}
