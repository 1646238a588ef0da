// GraphQL Code Generator: the schema's types, each operation's variables and result, and the operations as typed
// document strings (no graphql-js at run time), from graphql/schema.graphql and graphql/operations/.
// ENGRAM_CODEGEN_OUT writes elsewhere (the drift check, scripts/check-generated.mjs, compares a fresh run).
import type { CodegenConfig } from "@graphql-codegen/cli";

const out = process.env.ENGRAM_CODEGEN_OUT ?? "src/generated/graphql.ts";

const config: CodegenConfig = {
  schema: "../../graphql/schema.graphql",
  // ENGRAM_CODEGEN_DOCUMENTS: other operations (the drift check's own test edits a copy).
  documents: process.env.ENGRAM_CODEGEN_DOCUMENTS ?? "../../graphql/operations/*.graphql",
  silent: true,
  generates: {
    [out]: {
      plugins: ["typescript-operations", "typed-document-node"],
      config: {
        documentMode: "string",
        enumsAsTypes: true,
        useTypeImports: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        scalars: {
          DateTime: { input: "string", output: "string" },
          JSON: { input: "unknown", output: "unknown" },
          Date: { input: "string", output: "string" },
          Upload: { input: "File", output: "File" },
          ID: { input: "string", output: "string" },
        },
        strictScalars: true,
        nonOptionalTypename: true,
      },
    },
  },
};

export default config;
