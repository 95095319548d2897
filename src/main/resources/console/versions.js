// A profile's versions (GET /v1/profiles/{pid}/versions, docs/history.md): what made each, when, under which user;
// and what changed between two of them, member by member. Read only when asked for (the button): each read is a
// person's look-up, recorded in the audit trail, and counted against their rate limit. A file of its own so that
// console.js stays readable; console.js hands it what it needs. Everything shown is set as text.
"use strict";
window.ConsoleVersions = function (tools) {
  const { $, api, t, fail } = tools;
  const PAGE = 100;
  let shown = null; // { pid, items, from, to }: rendered again when the language changes
  let asked = 0;    // which read is the newest: the answer for a profile left meanwhile is dropped

  /** A profile was opened: its versions are offered, not read. */
  function reset(pid) {
    asked++;
    shown = null;
    $("versions-show").hidden = false;
    $("versions-show").dataset.pid = pid;
    $("versions").hidden = true;
    $("versions-diff").hidden = true;
    $("versions-more").hidden = true;
    $("versions").querySelector("tbody").replaceChildren();
    $("versions-diff").replaceChildren();
  }

  async function show() {
    const pid = $("versions-show").dataset.pid;
    const ticket = ++asked;
    try {
      const page = (await api("GET", versionsPath(pid, null))).json;
      if (ticket !== asked) return;
      shown = { pid, items: page.items, next: page.next || null, to: 0, from: page.items.length > 1 ? 1 : 0 };
      $("versions-show").hidden = true;
      render();
    } catch (e) {
      if (ticket === asked) fail(e);
    }
  }

  /** The next page of older versions, added below those shown (another read, audited as one). */
  async function more() {
    if (!shown || !shown.next || $("versions-more").disabled) return;
    const ticket = asked;
    $("versions-more").disabled = true; // a second click while the page comes would add it twice
    try {
      const page = (await api("GET", versionsPath(shown.pid, shown.next))).json;
      if (ticket !== asked) return;
      shown.items = shown.items.concat(page.items);
      shown.next = page.next || null;
      render();
    } catch (e) {
      if (ticket === asked) fail(e);
    } finally {
      $("versions-more").disabled = false;
    }
  }

  function versionsPath(pid, cursor) {
    return "/v1/profiles/" + encodeURIComponent(pid) + "/versions?limit=" + PAGE
      + (cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
  }

  function render() {
    if (!shown) return;
    const body = $("versions").querySelector("tbody");
    body.replaceChildren();
    shown.items.forEach((v, i) => {
      const row = document.createElement("tr");
      row.className = "version";
      row.dataset.version = v.version;
      [String(v.version), t("versions.kind." + v.kind), v.changedAt, v.uid].forEach((text) => {
        const td = document.createElement("td");
        td.textContent = text;
        row.append(td);
      });
      ["from", "to"].forEach((end) => {
        const td = document.createElement("td");
        const pick = document.createElement("input");
        pick.type = "radio";
        pick.name = "version-" + end;
        pick.value = String(i);
        pick.checked = shown[end] === i;
        pick.setAttribute("aria-label", t("versions." + end) + " " + v.version);
        pick.addEventListener("change", () => { shown[end] = i; renderDiff(); });
        td.append(pick);
        row.append(td);
      });
      body.append(row);
    });
    $("versions").hidden = false;
    $("versions-more").hidden = !shown.next;
    renderDiff();
  }

  /** What changed from one version to the other: each member (by its path) added, removed or changed. */
  function renderDiff() {
    const list = $("versions-diff");
    list.replaceChildren();
    const from = shown.items[shown.from];
    const to = shown.items[shown.to];
    const before = flatten(from.data);
    const after = flatten(to.data);
    const head = document.createElement("li");
    head.className = "diff-head";
    head.textContent = t("versions.between", { from: from.version, to: to.version });
    list.append(head);
    const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
    let changes = 0;
    paths.forEach((path) => {
      const a = before.get(path);
      const b = after.get(path);
      if (a === b) return;
      changes++;
      const item = document.createElement("li");
      item.className = a === undefined ? "added" : b === undefined ? "removed" : "changed";
      item.textContent = a === undefined ? t("versions.added", { path, value: b })
        : b === undefined ? t("versions.removed", { path, value: a })
        : t("versions.changed", { path, from: a, to: b });
      list.append(item);
    });
    if (changes === 0) {
      const same = document.createElement("li");
      same.textContent = [from.kind, to.kind].some((k) => k === "erased" || k === "purged") ? t("versions.erasedNoData")
        : t("versions.same");
      list.append(same);
    }
    list.hidden = false;
  }

  /** Every leaf of a document by its path (surname, phones[0], documents[1].number), as JSON text. */
  function flatten(value, path, into) {
    const out = into || new Map();
    if (value === undefined) return out;
    if (value !== null && typeof value === "object") {
      const entries = Array.isArray(value) ? value.map((v, i) => [(path || "") + "[" + i + "]", v])
        : Object.keys(value).map((k) => [path ? path + "." + k : k, value[k]]);
      if (entries.length === 0 && path) out.set(path, Array.isArray(value) ? "[]" : "{}");
      entries.forEach(([p, v]) => flatten(v, p, out));
    } else {
      out.set(path || "", JSON.stringify(value));
    }
    return out;
  }

  $("versions-show").addEventListener("click", show);
  $("versions-more").addEventListener("click", more);
  return { reset, render };
};
