// GraphQL Code Generator plugin: the names of the web app's own operations (web/src/**/*.graphql), for the
// gateway's metrics (observability/graphql-metrics.ts): an operation is counted under its name only when
// it is one of these, else as "other", so that a client sending any operationName adds no series.

module.exports = {
  plugin(_schema, documents) {
    const names = new Set();
    for (const file of documents)
      for (const definition of file.document?.definitions ?? [])
        if (definition.kind === "OperationDefinition" && definition.name) names.add(definition.name.value);
    const lines = [...names].sort().map((name) => `  ${JSON.stringify(name)},`);
    return `export const WEB_OPERATIONS: ReadonlySet<string> = new Set([\n${lines.join("\n")}\n]);\n`;
  },
};
