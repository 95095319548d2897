#!/usr/bin/env node
// Checks alerting rules' PromQL offline with the Prometheus project's own grammar and checker, the ones its web UI
// runs: @prometheus-io/lezer-promql parses each expression (a syntax error is an error node of the tree: an
// unbalanced bracket, a duration such as 5mm, a matcher such as ==, an unknown function), and
// @prometheus-io/codemirror-promql's Parser, a port of Prometheus's checkAST, checks types (rate() of an instant
// vector, a set operator between scalars, a function's arguments). Each rule's `for` must be a Prometheus duration.
//
//   node validate-promql.mjs RULES.json
//
// RULES.json: [{"name": "...", "expr": "...", "for": "5m" (optional)}, ...]. Prints a JSON array on standard
// output, one entry a rule: {"name", "errors": ["..."], "metrics": ["metric names the expression selects"]}
// (metrics only when the expression has no error: a tree recovered from an error may name anything). Exit code 0
// when no rule has an error, 1 otherwise.
//
// The packages are CommonJS-loaded, all of them: codemirror-promql's CommonJS build requires lezer-promql and
// @codemirror/state that way, and two copies of @codemirror/state (one ESM, one CommonJS) do not work together.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const { parser, VectorSelector, MatrixSelector, Identifier } = require("@prometheus-io/lezer-promql");
const { EditorState } = require("@codemirror/state");
const { ensureSyntaxTree } = require("@codemirror/language");
const { promQLLanguage, LanguageType } = require("@prometheus-io/codemirror-promql");
// the type checker is not exported by the package's CommonJS index
const { Parser } = require("@prometheus-io/codemirror-promql/dist/cjs/parser");

const language = promQLLanguage(LanguageType.PromQL);
// Prometheus's model.ParseDuration: units from the largest down, each at most once; "0" alone
const DURATION = /^(0|(\d+y)?(\d+w)?(\d+d)?(\d+h)?(\d+m)?(\d+s)?(\d+ms)?)$/;

/** "line:column" of an offset, both from 1, and the line with a marker where the offset is. */
function where(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  const lineText = text.split("\n")[line - 1];
  return `${line}:${column}: ${lineText.slice(0, column - 1).trimStart()}»${lineText.slice(column - 1)}`;
}

function check(rule) {
  const { expr } = rule;
  const errors = [];
  const metrics = new Set();
  if (typeof expr !== "string" || expr.trim() === "") {
    return { name: rule.name, errors: ["no expression"], metrics: [] };
  }
  const tree = parser.parse(expr);
  tree.iterate({
    enter(node) {
      if (node.type.isError) {
        errors.push(`syntax error at ${where(expr, node.from)}`);
      } else if (node.type.id === VectorSelector) {
        const name = node.node.getChild(Identifier);
        if (name) metrics.add(expr.slice(name.from, name.to));
      }
    },
  });
  // the type checker reports the syntax errors again, less precisely: only its own findings are added
  // An editor state parses its document in time slices (20 ms at creation), and the checker reads the state's tree:
  // on a busy machine that tree can end early, and the checker then reported a valid expression as broken (seen in
  // two runs). The whole tree is asked for, with a generous bound, and given to the checker.
  const state = EditorState.create({ doc: expr, extensions: [language] });
  const whole = ensureSyntaxTree(state, expr.length, 60_000);
  if (!whole) {
    return { name: rule.name, errors: ["the type checker's parse did not finish in 60 s"], metrics: [] };
  }
  const types = new Parser(state);
  types.tree = whole;
  types.analyze();
  for (const d of types.getDiagnostics()) {
    if (d.message !== "unexpected expression") {
      const message = `${d.message} at ${where(expr, d.from)}`;
      if (!errors.includes(message)) errors.push(message);
    }
  }
  if (rule.for !== undefined && rule.for !== null) {
    const duration = String(rule.for);
    // the grammar's duration, as in a range selector, and the form Prometheus's rule loader takes
    const range = parser.parse(`up[${duration}]`);
    const literal = range.topNode.firstChild?.type.id === MatrixSelector
      ? range.topNode.firstChild.getChild("DurationExpr")?.firstChild : null;
    let valid = DURATION.test(duration) && literal?.name === "NumberDurationLiteralInDurationContext"
      && literal.from === 3 && literal.to === 3 + duration.length;
    range.iterate({ enter(node) { if (node.type.isError) valid = false; } });
    if (!valid) errors.push(`for: '${duration}' is not a Prometheus duration (such as 5m or 1h30m)`);
  }
  return { name: rule.name, errors, metrics: errors.length === 0 ? [...metrics].sort() : [] };
}

const results = JSON.parse(readFileSync(process.argv[2], "utf8")).map(check);
// exitCode, not exit(): output to a pipe is written asynchronously, and exit() could cut it short
process.stdout.write(JSON.stringify(results, null, 2) + "\n");
process.exitCode = results.some((r) => r.errors.length > 0) ? 1 : 0;
