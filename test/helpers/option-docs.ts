/**
 * The TSDoc of every queue option as an editor shows it: read with the TypeScript checker from
 * the types users write (`MatchmakerRoomOptions`, inferred from src/options/fields.ts, and the
 * engine's `MatchmakerOptions`), so what is checked is what a user hovers, not a comment that
 * might sit elsewhere.
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

/** The option types users write, and the module that declares each. */
const OPTION_TYPES = {
  MatchmakerRoomOptions: resolve(ROOT, "src/options/queue-options.ts"),
  MatchmakerOptions: resolve(ROOT, "src/options/matchmaker.ts"),
} as const;

let program: ts.Program | undefined;

/** One program over the modules of both types (checking them takes seconds: once per file). */
function optionsProgram(): ts.Program {
  if (program) return program;
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
  program = ts.createProgram({ rootNames: Object.values(OPTION_TYPES), options: { ...config.options, noEmit: true } });
  return program;
}

/** The docs of the properties of `typeName`, and of their fields where `descend(path)` says so. */
export function optionDocs(
  typeName: keyof typeof OPTION_TYPES,
  descend: (path: string) => boolean,
): Map<string, OptionDoc> {
  const checker = optionsProgram().getTypeChecker();
  const source = optionsProgram().getSourceFile(OPTION_TYPES[typeName])!;
  const declaration = source.statements.find(
    (s): s is ts.TypeAliasDeclaration | ts.InterfaceDeclaration =>
      (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name.text === typeName,
  );
  if (!declaration) throw new Error(`${OPTION_TYPES[typeName]}: no type ${typeName}`);
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
  visit(checker.getTypeAtLocation(declaration.name), "");
  return docs;
}
