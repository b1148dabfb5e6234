import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  Kind,
  parse,
  print,
  visit,
  type DefinitionNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from "graphql";
import { ROOT } from "./pocketbase.ts";

/**
 * The web app's own GraphQL operations (web/src/**\/*.graphql), by name, each printed with the
 * fragments it uses: the benches send exactly what the browser sends.
 */
export async function webOperations(): Promise<Map<string, string>> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith(".graphql")) files.push(path);
    }
  };
  await walk(join(ROOT, "web", "src"));
  const definitions: DefinitionNode[] = [];
  for (const file of files) definitions.push(...parse(await readFile(file, "utf8")).definitions);
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const d of definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    else if (d.kind === Kind.OPERATION_DEFINITION && d.name) operations.push(d);
  }
  const used = (node: DefinitionNode, into: Set<string>) => {
    visit(node, {
      FragmentSpread(spread) {
        if (into.has(spread.name.value)) return;
        into.add(spread.name.value);
        used(fragments.get(spread.name.value)!, into);
      },
    });
    return into;
  };
  const result = new Map<string, string>();
  for (const operation of operations) {
    const names = [...used(operation, new Set())];
    result.set(
      operation.name!.value,
      [operation, ...names.map((n) => fragments.get(n)!)].map((d) => print(d)).join("\n\n"),
    );
  }
  return result;
}
