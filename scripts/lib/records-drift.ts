import ts from "typescript";

/**
 * Drift between gateway/src/pocketbase/records.ts (the record types the gateway is written against)
 * and the collections the migrations produce. records.ts names each collection's type in its
 * `Collections` interface; every field of the collection must be a property of that type with a
 * matching TypeScript type, and every property must be a field (or the API's `expand`,
 * `collectionId`, `collectionName`, or a property the gateway attaches, tagged `@gateway`).
 */

/** A collection as PocketBase's collections API describes it (the parts compared). */
export interface LiveCollection {
  name: string;
  system?: boolean;
  fields: LiveField[];
}
export interface LiveField {
  name: string;
  type: string;
  hidden?: boolean;
  maxSelect?: number;
  values?: string[];
}

/** What a TypeScript property can be compared as. */
export interface TsKind {
  kind: "string" | "number" | "boolean" | "string[]" | "other";
  /** String literal members ("draft" | "published"), when the type lists them. */
  literals: string[];
}
export interface RecordProperty extends TsKind {
  name: string;
  /** Tagged @gateway: attached by the gateway, not stored. */
  gateway: boolean;
}
export interface RecordType {
  typeName: string;
  properties: Map<string, RecordProperty>;
}

const API_PROPERTIES = new Set(["expand", "collectionId", "collectionName"]);

/** The `Collections` interface of `recordsFile`: collection name → its record type's properties. */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  types: [],
  // The record types need the language's own types only: without the DOM's (the default lib's bulk),
  // a program is a few times quicker to build.
  lib: ["lib.es2022.d.ts"],
};
// The standard library's files, parsed once per process and shared by every program.
const libFiles = new Map<string, ts.SourceFile | undefined>();
const host = ts.createCompilerHost(COMPILER_OPTIONS);
const readSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
  if (!fileName.includes("/typescript/lib/"))
    return readSourceFile(fileName, languageVersion, onError, shouldCreate);
  if (!libFiles.has(fileName))
    libFiles.set(fileName, readSourceFile(fileName, languageVersion, onError, shouldCreate));
  return libFiles.get(fileName);
};

export function readRecordTypes(recordsFile: string): Map<string, RecordType> {
  const program = ts.createProgram([recordsFile], COMPILER_OPTIONS, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(recordsFile);
  if (!source) throw new Error(`Cannot read ${recordsFile}.`);
  const collections = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "Collections",
  );
  if (!collections)
    throw new Error(`${recordsFile} has no "Collections" interface naming each collection's record type.`);

  const kindOf = (type: ts.Type): TsKind => {
    const parts = (type.isUnion() ? type.types : [type]).filter(
      (t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)),
    );
    const literals = parts.filter((t): t is ts.StringLiteralType => t.isStringLiteral()).map((t) => t.value);
    if (parts.length && parts.every((t) => t.flags & ts.TypeFlags.StringLike))
      return { kind: "string", literals };
    if (parts.length && parts.every((t) => t.flags & ts.TypeFlags.BooleanLike))
      return { kind: "boolean", literals: [] };
    if (parts.length && parts.every((t) => t.flags & ts.TypeFlags.NumberLike))
      return { kind: "number", literals: [] };
    if (parts.length === 1 && checker.isArrayType(parts[0]!)) {
      const element = kindOf(checker.getTypeArguments(parts[0] as ts.TypeReference)[0]!);
      if (element.kind === "string") return { kind: "string[]", literals: element.literals };
    }
    return { kind: "other", literals: [] };
  };

  const result = new Map<string, RecordType>();
  for (const member of collections.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const collection = member.name.getText(source).replace(/^["']|["']$/g, "");
    const recordType = checker.getTypeFromTypeNode(member.type);
    const properties = new Map<string, RecordProperty>();
    for (const symbol of checker.getPropertiesOfType(recordType)) {
      const type = checker.getTypeOfSymbol(symbol);
      const gateway = symbol.getJsDocTags(checker).some((tag) => tag.name === "gateway");
      properties.set(symbol.name, { name: symbol.name, gateway, ...kindOf(type) });
    }
    result.set(collection, { typeName: member.type.getText(source), properties });
  }
  return result;
}

/** The TypeScript kind a field's values have in API responses. */
export function expectedKind(field: LiveField): TsKind["kind"] | "any" {
  switch (field.type) {
    case "bool":
      return "boolean";
    case "number":
      return "number";
    case "select":
    case "relation":
    case "file":
      return (field.maxSelect ?? 1) > 1 ? "string[]" : "string";
    case "json":
    case "geoPoint":
      return "any";
    default:
      // text, email, url, editor, date, autodate, password
      return "string";
  }
}

/** Every disagreement, one line each ("collection.field: …"); empty when records.ts matches. */
export function compareRecords(live: LiveCollection[], types: Map<string, RecordType>): string[] {
  const problems: string[] = [];
  const liveNames = new Set<string>();
  for (const collection of live) {
    if (collection.system || collection.name.startsWith("_")) continue;
    liveNames.add(collection.name);
    const record = types.get(collection.name);
    if (!record) {
      problems.push(
        `${collection.name}: a collection with no record type in records.ts (add it to Collections)`,
      );
      continue;
    }
    const fieldNames = new Set<string>();
    for (const field of collection.fields) {
      fieldNames.add(field.name);
      const property = record.properties.get(field.name);
      const expected = expectedKind(field);
      if (!property) {
        // Hidden fields (password, tokenKey) never reach the gateway; nothing to declare.
        if (!field.hidden)
          problems.push(
            `${collection.name}.${field.name}: a ${describe(field)} field, missing from ${record.typeName}`,
          );
        continue;
      }
      if (expected !== "any" && property.kind !== expected) {
        problems.push(
          `${collection.name}.${field.name}: a ${describe(field)} field, but ${record.typeName} declares ${property.kind === "other" ? "another type" : property.kind}`,
        );
        continue;
      }
      if (field.type === "select" && property.literals.length) {
        const declared = new Set(property.literals.filter((v) => v !== ""));
        const stored = new Set(field.values ?? []);
        const extra = [...declared].filter((v) => !stored.has(v));
        const missing = [...stored].filter((v) => !declared.has(v));
        if (extra.length || missing.length) {
          problems.push(
            `${collection.name}.${field.name}: select values ${[...stored].join(", ")}; ${record.typeName} ` +
              [
                missing.length ? `lacks ${missing.join(", ")}` : "",
                extra.length ? `adds ${extra.join(", ")}` : "",
              ]
                .filter(Boolean)
                .join(" and "),
          );
        }
      }
    }
    for (const property of record.properties.values()) {
      if (fieldNames.has(property.name) || API_PROPERTIES.has(property.name) || property.gateway) continue;
      problems.push(
        `${collection.name}.${property.name}: declared by ${record.typeName}, not a field of the collection`,
      );
    }
  }
  for (const [name, record] of types) {
    if (!liveNames.has(name))
      problems.push(`${name}: named in Collections (${record.typeName}) but no such collection`);
  }
  return problems;
}

function describe(field: LiveField): string {
  if (field.type === "select" || field.type === "relation" || field.type === "file")
    return `${field.type} (${(field.maxSelect ?? 1) > 1 ? "multiple" : "single"})`;
  return field.type;
}
