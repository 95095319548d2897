// The operator console. Plain JavaScript, no library, nothing fetched from elsewhere: the page works offline.
// The token lives in this tab's sessionStorage only; search terms live in the page URL's fragment, which never
// leaves the browser, and go to the service in a request body (POST /v1/search), never in a URL. Everything shown
// is set as text, never as HTML.
"use strict";
(function () {
  const TOKEN = "profile-store.token";
  const LANG = "profile-store.lang";
  const OIDC_STATE = "profile-store.oidc";
  const DEBOUNCE_MS = 250;
  const PAGE = 20;

  const $ = (id) => document.getElementById(id);
  let settings = { authEnabled: true };
  let me = null;
  let lang = localStorage.getItem(LANG) || ((navigator.language || "en").slice(0, 2) === "ru" ? "ru" : "en");

  // ---- words ------------------------------------------------------------------------------------------------
  function t(key, values) {
    const text = (window.CONSOLE_TEXT[lang] || {})[key] || window.CONSOLE_TEXT.en[key] || key;
    return text.replace(/\{(\w+)\}/g, (_, name) => (values && values[name] !== undefined ? values[name] : ""));
  }
  function translatePage() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
    document.querySelectorAll("[data-tp]").forEach((el) => { el.placeholder = t(el.dataset.tp); });
    $("lang").textContent = lang === "ru" ? "EN" : "RU";
  }

  // ---- messages ---------------------------------------------------------------------------------------------
  function say(text, isError) {
    const status = $("status");
    status.textContent = text || "";
    status.className = isError ? "error" : "";
  }
  /** The message for a problem answer: what the operator can do about it, in their language. */
  function problemText(status, problem) {
    const type = (problem && problem.type || "").split("/").pop();
    if (type === "search-unavailable") return t("err.search-unavailable");
    // a machine's key at sign-in: the service says why, and whom to ask (in English; the page's own words in Russian)
    if (type === "machine-credential") return lang === "en" && problem.detail ? problem.detail : t("err.machine-credential");
    // a conflict's detail says which (merged already, moved meanwhile, someone else's change in progress)
    if (status === 409) return t("err.409", { detail: problem && problem.detail || problem && problem.title || "409" });
    if ([401, 403, 412].includes(status)) return t("err." + status);
    if (status === 503) return t("err.503", { detail: problem && problem.detail || "" });
    return t("err.other", { title: problem && problem.title || status, detail: problem && problem.detail || "" });
  }

  // ---- the API ----------------------------------------------------------------------------------------------
  class ApiError extends Error {
    constructor(status, problem) {
      super(problemText(status, problem));
      this.status = status;
      this.problem = problem;
    }
  }
  async function api(method, path, body, headers, signal) {
    const all = Object.assign({ "Accept": "application/json" }, headers || {});
    const token = sessionStorage.getItem(TOKEN);
    if (token) all["Authorization"] = "Bearer " + token;
    if (body !== undefined) all["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store", credentials: "omit", signal });
    } catch (e) {
      if (e.name === "AbortError") throw e;
      throw new ApiError(0, { title: t("err.network"), detail: "" });
    }
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch (e) {
      // not ours (a proxy's page): the status speaks for itself
    }
    if (!response.ok) {
      if (response.status === 401 && settings.authEnabled) signOut(false);
      throw new ApiError(response.status, json);
    }
    if (text && json === null) {
      // answered, but not by this service (a proxy's page)
      throw new ApiError(502, { title: String(response.status), detail: t("err.network") });
    }
    return { json, etag: response.headers.get("ETag") };
  }
  function fail(error) {
    if (error && error.name === "AbortError") return;
    say(error.message, true);
  }

  // ---- sign-in ----------------------------------------------------------------------------------------------
  async function signIn(token) {
    if (token) sessionStorage.setItem(TOKEN, token.trim());
    try {
      // the console's session admits people only: the service refuses a machine's key (403 machine-credential)
      me = (await api("GET", "/v1/console/session")).json;
    } catch (e) {
      me = null;
      sessionStorage.removeItem(TOKEN);
      show("sign-in");
      fail(e);
      return;
    }
    say("");
    $("who").textContent = me.name + " · " + me.roles.join(", ");
    $("nav").hidden = false;
    $("sign-out").hidden = !settings.authEnabled;
    $("nav-audit").hidden = !may("audit");
    route();
  }
  function signOut(clearMessage) {
    sessionStorage.removeItem(TOKEN);
    me = null;
    $("who").textContent = "";
    $("nav").hidden = true;
    $("sign-out").hidden = true;
    if (clearMessage) say("");
    show("sign-in");
  }
  function has(role) {
    return !!me && me.roles.includes(role);
  }
  /**
   * What the signed-in person may do, so that the page shows nothing their roles would refuse (docs/security.md,
   * "By endpoint"). Every role the console admits reads and searches; the platform's right to edit is a machine's,
   * not shown to a person who also holds it.
   */
  function may(what) {
    if (what === "edit") return has("editor");
    if (what === "merge") return has("editor") || has("admin");
    if (what === "audit") return has("admin");
    return false;
  }

  // Authorization code with PKCE: the verifier stays in this tab; the provider sees only its hash.
  function randomText(bytes) {
    const raw = crypto.getRandomValues(new Uint8Array(bytes));
    return base64url(raw);
  }
  function base64url(bytes) {
    return btoa(String.fromCharCode.apply(null, Array.from(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function redirectUri() {
    return location.origin + location.pathname;
  }
  async function signInWithProvider() {
    const oidc = settings.oidc;
    const verifier = randomText(48);
    const state = randomText(16);
    const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
    sessionStorage.setItem(OIDC_STATE, JSON.stringify({ verifier, state }));
    const url = new URL(oidc.authorizationEndpoint);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", oidc.clientId);
    url.searchParams.set("redirect_uri", redirectUri());
    url.searchParams.set("scope", oidc.scope);
    url.searchParams.set("state", state);
    url.searchParams.set("code_challenge", challenge);
    url.searchParams.set("code_challenge_method", "S256");
    location.assign(url.toString());
  }
  /** Back from the provider with ?code=…&state=…: trade the code for a token, then forget both from the URL. */
  async function finishProviderSignIn() {
    const params = new URLSearchParams(location.search);
    if (!settings.oidc || !(params.has("code") || params.has("error"))) return false;
    history.replaceState(null, "", redirectUri() + location.hash);
    const saved = JSON.parse(sessionStorage.getItem(OIDC_STATE) || "null");
    sessionStorage.removeItem(OIDC_STATE);
    if (params.has("error") || !saved || saved.state !== params.get("state")) {
      say(t("err.401"), true);
      return false;
    }
    const form = new URLSearchParams({ grant_type: "authorization_code", code: params.get("code"),
      redirect_uri: redirectUri(), client_id: settings.oidc.clientId, code_verifier: saved.verifier });
    try {
      const response = await fetch(settings.oidc.tokenEndpoint, { method: "POST", body: form, credentials: "omit",
        headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      const tokens = await response.json();
      if (!response.ok || !tokens.access_token) throw new Error();
      await signIn(tokens.access_token);
      return true;
    } catch (e) {
      say(t("err.401"), true);
      return false;
    }
  }

  // ---- views ------------------------------------------------------------------------------------------------
  function show(view) {
    ["sign-in", "search", "profile", "audit"].forEach((name) => { $("view-" + name).hidden = name !== view; });
  }
  /** A fragment's part, decoded; a malformed one (a hand-edited URL) reads as typed. */
  function decoded(text) {
    try {
      return decodeURIComponent(text);
    } catch (e) {
      return text;
    }
  }
  function route() {
    if (!me) {
      show("sign-in");
      return;
    }
    const hash = location.hash || "#/search/";
    if (hash.startsWith("#/profile/")) {
      openProfile(decoded(hash.slice("#/profile/".length)));
    } else if (hash.startsWith("#/audit") && may("audit")) {
      show("audit");
    } else {
      show("search");
      const typed = decoded(hash.startsWith("#/search/") ? hash.slice("#/search/".length) : "");
      if ($("q").value !== typed) $("q").value = typed;
      search(typed, []);
      $("q").focus();
    }
  }

  // ---- search -----------------------------------------------------------------------------------------------
  let pending = null;
  let debounce = null;
  let cursors = [];      // the cursor of each page shown so far: [null, c2, c3, …]
  let next = null;

  function onType() {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      // the terms go into the fragment only: it never leaves the browser
      history.replaceState(null, "", "#/search/" + encodeURIComponent($("q").value));
      search($("q").value, []);
    }, DEBOUNCE_MS);
  }
  async function search(typed, pages) {
    if (pending) pending.abort();
    cursors = pages;
    if (!typed.trim()) {
      render(null);
      return;
    }
    pending = new AbortController();
    // the terms go in the body: a URL is kept by proxies and logs, a body is not
    const body = { q: typed, limit: PAGE };
    const cursor = pages.length ? pages[pages.length - 1] : null;
    if (cursor) body.cursor = cursor;
    try {
      const answer = (await api("POST", "/v1/search", body, {}, pending.signal)).json;
      say("");
      next = answer.nextCursor || null;
      render(answer);
      if (UUID.test(typed)) await showUserOf(typed, answer.items.length > 0);
    } catch (e) {
      if (e.name === "AbortError") return;
      if (e.status === 400 && pages.length && e.problem && (e.problem.type || "").endsWith("/cursor-expired")) {
        // a page asked for after its cursor's two minutes: start the search again from its first page
        search(typed, []);
        return;
      }
      render(null);
      // a query that cannot be read is shown as a hint, not an alarm
      if (e.status === 400) $("reading").textContent = e.problem && e.problem.detail || "";
      else fail(e);
    }
  }

  const UUID = /^\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/i;

  /**
   * A uid may be a user merged into another: its profiles moved to the master, and the user answers with the master
   * (resolvedFrom), whose profiles are listed. The user is asked even when search found the uid, because the index
   * learns of a merge after Cassandra does: for a while it still lists the profiles under their old user.
   */
  async function showUserOf(typed, found) {
    try {
      const user = (await api("GET", "/v1/users/" + encodeURIComponent(typed.trim()))).json;
      if ($("q").value !== typed) return;
      if (found && !user.resolvedFrom) return; // the hits say it all
      $("no-hits").hidden = true;
      const line = $("merged-line");
      line.textContent = user.resolvedFrom ? t("user.merged", { from: user.resolvedFrom, uid: user.uid }) : t("user.line", { uid: user.uid });
      line.hidden = false;
      const list = $("merged-profiles");
      fillProfiles(list, user.profiles);
      list.hidden = false;
    } catch (e) {
      // not a user either: "nobody found" stands
    }
  }
  let shown = null;      // the answer on screen, rendered again when the language changes
  function render(answer) {
    shown = answer;
    const body = $("results").querySelector("tbody");
    body.replaceChildren();
    $("merged-line").hidden = true;
    $("merged-profiles").hidden = true;
    $("results").hidden = !answer || !answer.items.length;
    $("no-hits").hidden = !answer || answer.items.length > 0;
    $("prev").hidden = !answer || cursors.length === 0;
    $("next").hidden = !answer || !next;
    $("reading").textContent = answer ? describeQuery(answer.query) : "";
    // which search the hits shown answer (the newest typed may still be on its way)
    $("results").dataset.for = answer && answer.query.q ? answer.query.q.input : "";
    if (!answer) return;
    answer.items.forEach((item) => {
      const row = document.createElement("tr");
      row.className = "hit";
      const name = document.createElement("td");
      const link = document.createElement("a");
      link.href = "#/profile/" + item.pid;
      link.textContent = [item.surname, item.firstName, item.patronymic].filter(Boolean).join(" ") || item.pid;
      name.append(link);
      const matched = (item.matched || []).map((m) => m.input + ": " + t("reading." + m.reading)).join("; ");
      row.append(name, cell(item.birthDate || ""), cell(matched, "matched"), cell(item.pid.slice(0, 8)));
      body.append(row);
    });
  }
  function describeQuery(query) {
    if (!query || !query.q) return "";
    const words = query.q.words.map((w) => {
      if (w.as === "name") return w.input;
      if (w.as === "birthDate") return w.date;
      if (w.as === "phone or document") return w.input + " → " + (w.phone || w.document);
      return w.input + " (" + w.as + ")";
    });
    return t("search.read") + " " + words.join(" · ");
  }
  function cell(text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  // ---- a profile --------------------------------------------------------------------------------------------
  let opened = null;   // { pid, uid, version }
  let matches = null;  // its possible duplicates (matches.js), made at start, once the page is there
  let versions = null; // its versions (versions.js), read when asked for

  async function openProfile(pid) {
    show("profile");
    say(t("loading"));
    $("conflict").hidden = true;
    let profile;
    try {
      profile = await api("GET", "/v1/profiles/" + encodeURIComponent(pid));
    } catch (e) {
      // an erased profile reads 404, and its versions are what a dispute or an audit asks for
      if (e.status === 404 && e.problem && (e.problem.type || "").endsWith("/profile-not-found")) showGone(pid);
      else fail(e);
      return;
    }
    try {
      $("user-box").hidden = false;
      $("matches-box").hidden = false;
      showProfile(profile.json);
      versions.reset(profile.json.pid);
      say("");
      $("profile-title").focus();
      await showUser(profile.json.uid);
      await matches.show(profile.json);
      if (may("merge")) {
        $("unmerge-result").hidden = true;
        await showHistory(profile.json.uid);
      }
      if (may("audit")) await showProfileAudit(pid);
    } catch (e) {
      fail(e);
    }
  }
  /** No profile stands at the pid: only what it was, its versions, may be asked for. */
  function showGone(pid) {
    opened = null;
    $("profile-title").textContent = pid;
    $("profile-title").tabIndex = -1;
    const facts = $("profile-facts");
    facts.replaceChildren();
    const dt = document.createElement("dt");
    dt.textContent = "pid";
    const dd = document.createElement("dd");
    dd.textContent = pid;
    facts.append(dt, dd);
    $("profile-data").textContent = "";
    ["edit-box", "merge-box", "user-box", "matches-box"].forEach((id) => { $(id).hidden = true; });
    versions.reset(pid);
    say(t("profile.gone"));
    $("profile-title").focus();
    // an admin still sees who looked at the person and who changed what
    $("profile-audit-box").hidden = !may("audit");
    if (may("audit")) showProfileAudit(pid).catch(fail);
  }
  function showProfile(profile) {
    showFacts(profile);
    $("edit-box").hidden = !may("edit");
    $("edit-data").value = JSON.stringify(profile.data || {}, null, 2);
    $("merge-box").hidden = !may("merge");
    $("profile-audit-box").hidden = !may("audit");
  }
  /** What the profile is now: title, ids, version, data (the edit box is left as it is). */
  function showFacts(profile) {
    const data = profile.data || {};
    opened = { pid: profile.pid, uid: profile.uid, version: profile.version };
    $("profile-title").textContent = [data.surname, data.firstName, data.patronymic].filter(Boolean).join(" ") || profile.pid;
    $("profile-title").tabIndex = -1;
    const facts = $("profile-facts");
    facts.replaceChildren();
    [["pid", profile.pid], [t("profile.user"), profile.uid], [t("profile.version"), profile.version],
      [t("profile.updated"), profile.updatedAt]].forEach(([name, value]) => {
      const dt = document.createElement("dt");
      dt.textContent = name;
      const dd = document.createElement("dd");
      dd.textContent = value;
      facts.append(dt, dd);
    });
    $("profile-data").textContent = JSON.stringify(data, null, 2);
  }
  async function showUser(uid) {
    const user = (await api("GET", "/v1/users/" + encodeURIComponent(uid))).json;
    $("user-line").textContent = user.resolvedFrom
      ? t("user.merged", { from: user.resolvedFrom, uid: user.uid })
      : t("user.line", { uid: user.uid });
    fillProfiles($("user-profiles"), user.profiles);
  }
  function fillProfiles(list, profiles) {
    list.replaceChildren();
    profiles.forEach((p) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#/profile/" + p.pid;
      const data = p.data || {};
      link.textContent = ([data.surname, data.firstName, data.patronymic].filter(Boolean).join(" ") || "—") + " · " + p.pid;
      item.append(link);
      list.append(item);
    });
  }
  async function save() {
    let data;
    try {
      data = JSON.parse($("edit-data").value);
    } catch (e) {
      say(t("edit.badJson"), true);
      return;
    }
    try {
      const saved = await api("PUT", "/v1/profiles/" + opened.pid, { data }, { "If-Match": '"' + opened.version + '"' });
      $("conflict").hidden = true;
      showProfile(saved.json);
      say(t("edit.saved", { v: saved.json.version }));
    } catch (e) {
      if (e.status !== 412) {
        fail(e);
        return;
      }
      // never overwrite: show what is there now, keep the operator's text, and let them decide
      const current = (await api("GET", "/v1/profiles/" + opened.pid)).json;
      showFacts(current);
      $("conflict-text").textContent = t("edit.stale", { v: current.version });
      $("conflict-current").textContent = JSON.stringify(current.data, null, 2);
      $("conflict").hidden = false;
      $("conflict").scrollIntoView();
      say(t("err.412"), true);
    }
  }
  function uids(text) {
    return text.split(/[\s,;]+/).filter(Boolean);
  }
  async function merge(event) {
    event.preventDefault();
    try {
      await api("POST", "/v1/users/" + opened.uid + "/merge", { sources: uids($("merge-sources").value) });
      $("merge-sources").value = "";
      say(t("merge.done"));
      await openProfile(opened.pid);
      say(t("merge.done"));
    } catch (e) {
      fail(e);
    }
  }
  async function unmerge(event) {
    event.preventDefault();
    const source = $("unmerge-source").value.trim();
    // the user the source was merged into, as the history says: not always the one the profile is under now
    const merge = merges && merges.merges.find((m) => m.sources.includes(source) && !m.undone.some((u) => u.source === source));
    await unmergeFrom(merge ? merge.target : opened.uid, source);
  }
  async function unmergeFrom(target, source) {
    try {
      const answer = (await api("POST", "/v1/users/" + target + "/unmerge", { source })).json;
      $("unmerge-source").value = "";
      await openProfile(opened.pid);
      showUnmerged(answer, source);
      say(t("unmerge.done"));
    } catch (e) {
      fail(e);
    }
  }
  /** What an unmerge moved back, and what it left where it is, with why. */
  function showUnmerged(answer, source) {
    const back = answer.restored[source] || [];
    $("unmerge-restored").textContent = back.length
      ? t("unmerge.restored", { source, pids: back.join(", ") }) : t("unmerge.nothingBack", { source });
    const list = $("unmerge-skipped");
    list.replaceChildren();
    if (answer.skipped.length) {
      const head = document.createElement("li");
      head.textContent = t("unmerge.skipped");
      list.append(head);
    }
    answer.skipped.forEach((skipped) => {
      const item = document.createElement("li");
      item.className = "skipped";
      item.textContent = skipped.uid
        ? t("unmerge.skippedMoved", { pid: skipped.pid, uid: skipped.uid }) : t("unmerge.skippedErased", { pid: skipped.pid });
      list.append(item);
    });
    $("unmerge-result").hidden = false;
  }
  let merges = null;     // the merge history on screen (not `history`: that is the browser's)
  /** The user's merges, newest first: what each brought, what went back; a source still merged can be taken out. */
  async function showHistory(uid) {
    merges = (await api("GET", "/v1/users/" + encodeURIComponent(uid) + "/merges")).json;
    renderHistory();
  }
  function renderHistory() {
    const list = $("merge-history");
    list.replaceChildren();
    $("history-none").hidden = merges.merges.length > 0;
    merges.merges.forEach((merge) => {
      const item = document.createElement("li");
      item.className = "merge";
      item.dataset.merge = merge.mergeId;
      item.textContent = t("history.merge", { at: new Date(merge.recordedAt).toLocaleString(lang), sources: merge.sources.join(", "), target: merge.target })
        + (merge.state === "pending" ? " " + t("history.pending") : "");
      const parts = document.createElement("ul");
      merge.sources.forEach((source) => {
        const part = document.createElement("li");
        const moved = merge.moved[source] || [];
        part.textContent = moved.length ? t("history.moved", { source, pids: moved.join(", ") }) : t("history.movedNone", { source });
        const undo = merge.undone.find((u) => u.source === source);
        if (undo) {
          const back = document.createElement("div");
          back.className = "undone";
          back.textContent = t("history.undone", { source, at: new Date(undo.recordedAt).toLocaleString(lang), pids: undo.restored.join(", ") || "—" });
          part.append(back);
        } else if (merge.state === "applied") {
          const button = document.createElement("button");
          button.type = "button";
          button.className = "unmerge-source";
          button.dataset.source = source;
          button.textContent = t("history.unmerge", { source });
          button.addEventListener("click", () => unmergeFrom(merge.target, source));
          part.append(" ", button);
        }
        parts.append(part);
      });
      item.append(parts);
      list.append(item);
    });
  }

  // ---- the audit trail --------------------------------------------------------------------------------------
  async function showProfileAudit(pid) {
    const page = (await api("GET", "/v1/audit?pid=" + encodeURIComponent(pid) + "&limit=50")).json;
    fillAudit($("profile-audit"), page.records, false);
  }
  async function showAudit(event) {
    event.preventDefault();
    const actor = $("audit-actor").value.trim();
    try {
      const page = (await api("GET", "/v1/audit?limit=100" + (actor ? "&actor=" + encodeURIComponent(actor) : ""))).json;
      fillAudit($("audit"), page.records, true);
      say("");
    } catch (e) {
      fail(e);
    }
  }
  function fillAudit(table, records, withPids) {
    const body = table.querySelector("tbody");
    body.replaceChildren();
    records.forEach((r) => {
      const row = document.createElement("tr");
      row.className = "audit-record";
      row.append(cell(new Date(r.at).toLocaleString(lang)), cell(r.actor), cell(r.action), cell(r.status == null ? "" : String(r.status)));
      if (withPids) row.append(cell((r.pids || []).map((p) => p.slice(0, 8)).join(" ")));
      body.append(row);
    });
  }

  // ---- start ------------------------------------------------------------------------------------------------
  async function start() {
    translatePage();
    matches = window.ConsoleMatches({ $, api, t, may, say, fail, lang: () => lang, reopen: () => openProfile(opened.pid) });
    versions = window.ConsoleVersions({ $, api, t, fail });
    $("lang").addEventListener("click", () => {
      lang = lang === "ru" ? "en" : "ru";
      localStorage.setItem(LANG, lang);
      translatePage();
      if (shown) render(shown);
      if (merges) renderHistory();
      matches.render();
      versions.render();
    });
    $("sign-in-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const key = $("api-key").value;
      $("api-key").value = "";
      signIn(key);
    });
    $("sign-in-oidc").addEventListener("click", signInWithProvider);
    $("sign-out").addEventListener("click", () => signOut(true));
    $("q").addEventListener("input", onType);
    $("q").addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        $("q").value = "";
        onType();
      }
      if (event.key === "Enter") {
        const first = document.querySelector("#results a");
        if (first) first.focus();
      }
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "/" && document.activeElement.tagName !== "INPUT" && document.activeElement.tagName !== "TEXTAREA") {
        event.preventDefault();
        if ($("view-search").hidden) location.hash = "#/search/" + encodeURIComponent($("q").value);
        else $("q").focus();
      }
    });
    $("next").addEventListener("click", () => search($("q").value, cursors.concat([next])));
    $("prev").addEventListener("click", () => search($("q").value, cursors.slice(0, -1)));
    $("save").addEventListener("click", save);
    $("merge-form").addEventListener("submit", merge);
    $("unmerge-form").addEventListener("submit", unmerge);
    $("audit-form").addEventListener("submit", showAudit);
    window.addEventListener("hashchange", route);

    try {
      const response = await fetch("settings.json", { cache: "no-store", credentials: "omit" });
      settings = await response.json();
    } catch (e) {
      say(t("err.network"), true);
    }
    $("oidc-box").hidden = !settings.oidc;
    // where people's API keys are refused, the provider is the only way in
    $("sign-in-form").hidden = $("sign-in-hint").hidden = settings.apiKeys === false;
    if (await finishProviderSignIn()) return;
    if (!settings.authEnabled || sessionStorage.getItem(TOKEN)) {
      await signIn(null);
    } else {
      show("sign-in");
      (settings.apiKeys === false ? $("sign-in-oidc") : $("api-key")).focus();
    }
  }
  document.addEventListener("DOMContentLoaded", start);
})();
