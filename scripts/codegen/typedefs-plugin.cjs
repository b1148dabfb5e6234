// GraphQL Code Generator plugin: emits the merged SDL (with descriptions) as a TS string, so the
// gateway needs no .graphql files at run time and the schema it serves is exactly the committed one.
const { printSchemaWithDirectives } = require("@graphql-tools/utils");

module.exports = {
  plugin(schema) {
    return `export const typeDefs = ${JSON.stringify(printSchemaWithDirectives(schema))};\n`;
  },
};
