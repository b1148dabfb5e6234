// GraphQL Code Generator plugin: the merged SDL of every module, printed exactly as the gateway serves it
// (typedefs-plugin.cjs prints the same string into typeDefs.ts), for the committed /schema.graphql that
// integrators read and generate clients from. GET /graphql/schema.graphql serves the same bytes.
const { printSchemaWithDirectives } = require("@graphql-tools/utils");

module.exports = {
  plugin(schema) {
    return printSchemaWithDirectives(schema);
  },
};
