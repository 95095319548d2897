#!/usr/bin/env node
// Checks a Grafana dashboard (the classic JSON model, which Grafana's dashboard sidecar loads) against Grafana's own
// schema, offline. Grafana publishes that schema in @grafana/schema as TypeScript types generated from its CUE kinds
// (the dashboard kind, and each panel plugin's options); no JSON Schema file comes with the package. This script
// turns the pinned package's types into JSON Schema with ts-json-schema-generator, every object closed (a key the
// types do not name is an error, as a misspelt key would be), and validates with Ajv:
//
// - the whole dashboard against Dashboard (dist/types/raw/dashboard/x/types.gen.d.ts);
// - each panel's options, and its fieldConfig.defaults.custom, against its panel plugin's Options and FieldConfig
//   (dist/types/raw/composable/<plugin>/panelcfg/x/types.gen.d.ts), which Dashboard leaves open; a panel of a
//   plugin this script has no types for is an error, so that nothing goes unchecked unnoticed.
//
//   node validate-dashboard.mjs DASHBOARD.json
//
// Prints {"schema": "...", "errors": ["<JSON pointer>: <message>", ...]} on standard output; exit code 0 when there
// is no error, 1 otherwise.
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const { createGenerator } = require("ts-json-schema-generator");
const Ajv = require("ajv");

const packageDir = dirname(require.resolve("@grafana/schema/package.json"));
const version = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")).version;
const raw = join(packageDir, "dist/types/raw");

// the panel plugins whose types are checked: the dashboard's type names them
const PLUGINS = {
  timeseries: { options: "TimeseriesOptions", fieldConfig: "TimeseriesFieldConfig" },
};

/**
 * One TypeScript program for all the types: an entry file that names them. A type re-exported under another name
 * is no root type for the generator, so each plugin's Options is given a name of its own by an interface that
 * extends it and adds nothing.
 */
function schemas() {
  const dir = mkdtempSync(join(tmpdir(), "grafana-schema-"));
  try {
    const lines = [`export type { Dashboard } from ${JSON.stringify(join(raw, "dashboard/x/types.gen"))};`];
    for (const [plugin, types] of Object.entries(PLUGINS)) {
      const file = JSON.stringify(join(raw, "composable", plugin, "panelcfg/x/types.gen"));
      for (const [kind, name] of Object.entries(types)) {
        const original = kind === "options" ? "Options" : "FieldConfig";
        lines.push(`import type { ${original} as ${name}Of } from ${file};`, `export interface ${name} extends ${name}Of {}`);
      }
    }
    const entry = join(dir, "grafana.ts");
    writeFileSync(entry, lines.join("\n") + "\n");
    // skipTypeCheck: the package's declarations are checked by Grafana's build, not here
    const generator = createGenerator({
      path: entry, skipTypeCheck: true, expose: "export", topRef: true, additionalProperties: false,
    });
    const names = ["Dashboard", ...Object.values(PLUGINS).flatMap((types) => Object.values(types))];
    return Object.fromEntries(names.map((name) => [name, generator.createSchema(name)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function errorsOf(validate, value, prefix) {
  if (validate(value)) return [];
  return validate.errors.map((e) => {
    const detail = e.keyword === "additionalProperties" ? ` (${e.params.additionalProperty})` : "";
    return `${prefix}${e.instancePath || ""} ${e.message}${detail}`.replace(/^ /, "/ ");
  });
}

function check(dashboard) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validators = Object.fromEntries(Object.entries(schemas()).map(([name, s]) => [name, ajv.compile(s)]));
  const errors = errorsOf(validators.Dashboard, dashboard, "");
  const panels = [];
  (dashboard.panels ?? []).forEach((panel, i) => {
    panels.push([`/panels/${i}`, panel]);
    (panel.panels ?? []).forEach((inner, j) => panels.push([`/panels/${i}/panels/${j}`, inner]));
  });
  for (const [path, panel] of panels) {
    if (panel.type === "row") continue;
    const plugin = PLUGINS[panel.type];
    if (!plugin) {
      errors.push(`${path}/type no schema of panel plugin ${JSON.stringify(panel.type)} here (known: ${Object.keys(PLUGINS)})`);
      continue;
    }
    errors.push(...errorsOf(validators[plugin.options], panel.options ?? {}, `${path}/options`));
    const custom = panel.fieldConfig?.defaults?.custom;
    if (custom !== undefined) {
      if (!plugin.fieldConfig) {
        errors.push(`${path}/fieldConfig/defaults/custom ${panel.type} panels have no custom field config`);
      } else {
        errors.push(...errorsOf(validators[plugin.fieldConfig], custom, `${path}/fieldConfig/defaults/custom`));
      }
    }
  }
  return errors;
}

const file = process.argv[2];
if (!file) {
  console.error("usage: node validate-dashboard.mjs DASHBOARD.json");
  process.exit(2);
}
const schema = `@grafana/schema ${version("@grafana/schema")} (Dashboard; the Options and FieldConfig of `
  + `${Object.keys(PLUGINS).join(", ")}), as JSON Schema by ts-json-schema-generator ${version("ts-json-schema-generator")}`;
let errors;
try {
  errors = check(JSON.parse(readFileSync(file, "utf8")));
} catch (e) {
  errors = [`/ cannot be checked: ${e.message}`];
}
console.log(JSON.stringify({ schema, errors }));
process.exit(errors.length === 0 ? 0 : 1);
