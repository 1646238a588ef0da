// Drift check: generate src/generated/graphql.ts afresh into a temporary file and compare it with the committed one.
// A change to graphql/schema.graphql or graphql/operations/ without `npm run generate` fails here (and in make test).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const committed = join(packageDir, "src", "generated", "graphql.ts");
const scratch = mkdtempSync(join(tmpdir(), "engram-ts-codegen-"));
const fresh = join(scratch, "graphql.ts");
try {
  execFileSync(join(packageDir, "node_modules", ".bin", "graphql-codegen"), ["--config", "codegen.ts"], {
    cwd: packageDir,
    env: { ...process.env, ENGRAM_CODEGEN_OUT: fresh },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let before = "";
  try {
    before = readFileSync(committed, "utf8");
  } catch {
    // missing: drift like any other
  }
  if (before !== readFileSync(fresh, "utf8")) {
    console.error(
      "clients/typescript/src/generated/graphql.ts is out of date with graphql/schema.graphql and graphql/operations/:" +
        " run `npm run generate` in clients/typescript",
    );
    process.exit(1);
  }
  console.log("clients/typescript matches graphql/schema.graphql and graphql/operations/");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
