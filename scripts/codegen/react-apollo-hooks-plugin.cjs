// GraphQL Code Generator plugin: one typed `useXxx` hook per operation, for Apollo Client 4.
// (typescript-react-apollo targets Apollo Client 3; see docs/ARCHITECTURE.md.) Runs after
// typescript-operations + typed-document-node in the same output file, so `XxxDocument` exists.
module.exports = {
  plugin(_schema, documents) {
    const hooks = { query: "useQuery", mutation: "useMutation", subscription: "useSubscription" };
    const used = new Set();
    const lines = [];
    for (const { document } of documents) {
      for (const def of document?.definitions ?? []) {
        if (def.kind !== "OperationDefinition" || !def.name) continue;
        const name = def.name.value;
        const hook = hooks[def.operation];
        used.add(hook);
        const suffix =
          def.operation === "query" ? "Query" : def.operation === "mutation" ? "Mutation" : "Subscription";
        const types = `${name}${suffix}, ${name}${suffix}Variables`;
        // Queries: we use neither @defer nor returnPartialData, so `data` is complete or absent;
        // saying so here spares every component Apollo's DeepPartial union.
        const signature =
          def.operation === "query"
            ? `(options?: Omit<useQuery.Options<${types}>, "returnPartialData">): useQuery.Result<${types}, "empty" | "complete">`
            : `(options?: ${hook}.Options<${types}>)`;
        lines.push(
          `/** ${def.operation} ${name} */`,
          `export function use${name}${signature} {`,
          `  return ${hook}<${types}>(${name}Document, options as never)${def.operation === "query" ? " as never" : ""};`,
          `}`,
          "",
        );
      }
    }
    return {
      prepend: [`import { ${[...used].sort().join(", ")} } from "@apollo/client/react";`],
      content: lines.join("\n"),
    };
  },
};
