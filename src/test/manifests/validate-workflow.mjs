#!/usr/bin/env node
// Validates GitHub Actions workflow files offline against the workflow schema (SchemaStore's, compiled into
// @action-validator/core): unknown keys, wrong types, a job without runs-on. Prints each error and exits 1 if any.
//
//   node validate-workflow.mjs FILE...
import { readFileSync } from "node:fs";
import { validateWorkflow } from "@action-validator/core";

let failed = false;
for (const file of process.argv.slice(2)) {
  const { errors } = validateWorkflow(readFileSync(file, "utf8"));
  for (const e of errors) {
    failed = true;
    console.log(`${file}: ${e.title}${e.path ? " at " + e.path : ""}${e.detail ? ": " + e.detail : ""}`);
  }
  if (errors.length === 0) console.log(`${file}: valid`);
}
process.exit(failed ? 1 : 0);
