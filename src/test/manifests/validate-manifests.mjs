#!/usr/bin/env node
// Validates Kubernetes manifests offline against the schemas of the kubernetes-models packages: Kubernetes itself
// (kubernetes-models), Flux (@kubernetes-models/flux-cd) and the prometheus-operator (ServiceMonitor). Each
// document is checked with the model class of its apiVersion and kind: types, required fields, enums, formats.
//
//   node validate-manifests.mjs FILE...      (no FILE, or "-": read standard input)
//
// The operators' own resources (K8ssandraCluster, Elasticsearch, RabbitmqCluster, CloudNativePG's Cluster and
// ScheduledBackup, k8ssandra's MedusaBackupSchedule) have no schema package: they are listed as skipped, by name,
// after their metadata is checked. Any other kind without a schema fails. Exit code: 0 when every document is
// valid, 1 otherwise.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { ObjectMeta } from "@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta";

// kinds we deploy that no schema package covers; checked for metadata only
const SKIPPED = new Set([
  "k8ssandra.io/v1alpha1/K8ssandraCluster",
  "elasticsearch.k8s.elastic.co/v1/Elasticsearch",
  "rabbitmq.com/v1beta1/RabbitmqCluster",
  "postgresql.cnpg.io/v1/Cluster",
  "postgresql.cnpg.io/v1/ScheduledBackup",
  "medusa.k8ssandra.io/v1alpha1/MedusaBackupSchedule",
  "cert-manager.io/v1/Issuer",
  "cert-manager.io/v1/Certificate",
]);

/** The modules that may define apiVersion's models, most likely first. */
function candidates(apiVersion) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  if (group.endsWith(".toolkit.fluxcd.io")) return [`@kubernetes-models/flux-cd/${group}/${version}`];
  if (group === "monitoring.coreos.com") return [`@kubernetes-models/prometheus-operator/${group}/${version}`];
  return [group === "" ? `kubernetes-models/${version}` : `kubernetes-models/${group}/${version}`];
}

const modules = new Map();
async function modelOf(apiVersion, kind) {
  for (const name of candidates(apiVersion)) {
    if (!modules.has(name)) {
      modules.set(name, await import(name).catch(() => null));
    }
    const model = modules.get(name)?.[kind];
    if (typeof model === "function" && model.apiVersion === apiVersion) return model;
  }
  return null;
}

async function validate(doc, where) {
  const { apiVersion, kind } = doc ?? {};
  if (typeof apiVersion !== "string" || typeof kind !== "string") {
    return { status: "invalid", what: where, detail: "no apiVersion or kind" };
  }
  const what = `${apiVersion} ${kind} ${doc.metadata?.namespace ? doc.metadata.namespace + "/" : ""}${doc.metadata?.name ?? "?"} (${where})`;
  try {
    if (!doc.metadata?.name) throw new Error("metadata.name is missing");
    new ObjectMeta(doc.metadata).validate();
    if (SKIPPED.has(`${apiVersion}/${kind}`)) {
      if (typeof doc.spec !== "object" || doc.spec === null) throw new Error("spec is missing");
      return { status: "skipped", what, detail: "operator resource, no schema package: metadata checked only" };
    }
    const Model = await modelOf(apiVersion, kind);
    if (!Model) return { status: "invalid", what, detail: "unknown kind: no schema to validate it with" };
    new Model(doc).validate();
    return { status: "valid", what };
  } catch (error) {
    return { status: "invalid", what, detail: error.message };
  }
}

const inputs = process.argv.slice(2);
const sources = (inputs.length ? inputs : ["-"]).map((file) => ({
  file: file === "-" ? "stdin" : file,
  text: readFileSync(file === "-" ? 0 : file, "utf8"),
}));

const counts = { valid: 0, invalid: 0, skipped: 0 };
const seen = new Set();
for (const { file, text } of sources) {
  const docs = parseAllDocuments(text);
  for (const [index, parsed] of docs.entries()) {
    const where = `${file} #${index + 1}`;
    if (parsed.errors.length) {
      counts.invalid++;
      console.log(`INVALID ${where}: ${parsed.errors.map((e) => e.message).join("; ")}`);
      continue;
    }
    const doc = parsed.toJS();
    if (doc === null || doc === undefined) continue;
    const result = await validate(doc, where);
    const key = `${doc.apiVersion}/${doc.kind}/${doc.metadata?.namespace ?? ""}/${doc.metadata?.name}`;
    if (result.status !== "invalid" && seen.has(`${file}\0${key}`)) {
      Object.assign(result, { status: "invalid", detail: "the same object twice in one rendering" });
    }
    seen.add(`${file}\0${key}`);
    counts[result.status]++;
    console.log(`${result.status.toUpperCase().padEnd(7)} ${result.what}${result.detail ? ": " + result.detail : ""}`);
  }
}
console.log(`manifests: ${counts.valid} valid, ${counts.invalid} invalid, ${counts.skipped} skipped (operator resources)`);
process.exit(counts.invalid === 0 && counts.valid + counts.skipped > 0 ? 0 : 1);
