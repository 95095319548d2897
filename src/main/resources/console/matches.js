// Possible duplicates of the profile opened (GET /v1/profiles/{pid}/matches): the other users who are probably the
// same person, with the grounds; and, for whoever may merge, a merge of one of them into the profile's user, asked
// only after a confirmation listing every profile that would move. A file of its own so that console.js stays
// readable; console.js hands it what it needs (the API, the words, the roles). Everything shown is set as text.
"use strict";
window.ConsoleMatches = function (tools) {
  const { $, api, t, may, say, fail, lang, reopen } = tools;
  let shown = null;      // { pid, uid, candidates: [{ match, user }] }: rendered again when the language changes
  let confirming = null; // { source, target, profiles }: the confirmation on screen
  let result = null;     // { source, target, moved, unconfirmed }: the last merge made from here
  let asked = 0;         // which look-up is the newest: the answer for a profile left meanwhile is dropped

  /** The matches of this profile, each candidate with its user as it is now (a merge may have moved it since). */
  async function show(profile) {
    const ticket = ++asked;
    shown = confirming = result = null;
    clear();
    try {
      const answer = (await api("GET", "/v1/profiles/" + encodeURIComponent(profile.pid) + "/matches")).json;
      const users = await Promise.all(answer.matches.map((m) => userOf(m.uid)));
      if (ticket !== asked) return;
      const seen = new Set([profile.uid]);
      const candidates = [];
      answer.matches.forEach((match, i) => {
        // the index learns of a merge after Cassandra: a candidate merged into this user (or into another
        // candidate's master) meanwhile is this one, or that one, now; the user read says which
        const user = users[i];
        if (!user || seen.has(user.uid)) return;
        seen.add(user.uid);
        candidates.push({ match, user });
      });
      shown = { pid: profile.pid, uid: profile.uid, candidates };
      render();
    } catch (e) {
      if (ticket !== asked || e.name === "AbortError") return;
      // the profile above is read from Cassandra and stands: only this section says what went wrong
      $("matches-problem").textContent = t("matches.problem", { detail: e.message });
      $("matches-problem").hidden = false;
    }
  }
  /** The user now, or null when there is none any more (every profile of it erased since it was indexed). */
  async function userOf(uid) {
    try {
      return (await api("GET", "/v1/users/" + encodeURIComponent(uid))).json;
    } catch (e) {
      if (e.status === 404) return null;
      throw e;
    }
  }
  function clear() {
    $("matches").replaceChildren();
    delete $("matches").dataset.for;
    $("matches-none").hidden = true;
    $("matches-problem").hidden = true;
    $("match-confirm").hidden = true;
    $("match-result").hidden = true;
  }

  function render() {
    if (!shown) return;
    const list = $("matches");
    list.replaceChildren();
    $("matches-none").hidden = shown.candidates.length > 0;
    shown.candidates.forEach(({ match, user }) => list.append(candidateItem(match, user)));
    // which profile the list answers, once it is complete (what a reader waiting for it looks at)
    list.dataset.for = shown.pid;
    renderConfirmation();
    renderResult();
  }
  function candidateItem(match, user) {
    const item = document.createElement("li");
    item.className = "match";
    item.dataset.uid = user.uid;
    const head = document.createElement("p");
    head.className = "match-head";
    const score = match.score.toLocaleString(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    head.textContent = t("user.line", { uid: user.uid }) + " · " + t("matches.score", { score }) + " · "
      + t("matches.grounds", { reasons: match.reasons.map((r) => t("reason." + r)).join(", ") });
    item.append(head);
    if (user.resolvedFrom) item.append(paragraph(t("user.merged", { from: user.resolvedFrom, uid: user.uid }), "hint"));
    const matched = user.profiles.filter((p) => match.pids.includes(p.pid));
    const list = document.createElement("ul");
    list.className = "match-profiles";
    item.append(fillProfiles(list, matched));
    const others = user.profiles.length - matched.length;
    if (others > 0) item.append(paragraph(t("matches.others", { n: others }), "hint"));
    if (may("merge")) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "match-merge";
      button.dataset.uid = user.uid;
      button.textContent = t("matches.merge");
      button.addEventListener("click", () => ask(user.uid));
      item.append(button);
    }
    return item;
  }
  function paragraph(text, className) {
    const p = document.createElement("p");
    p.textContent = text;
    p.className = className;
    return p;
  }
  /** Each profile as a link: name, birth date, pid (the search's columns, the way the user's profiles show). */
  function fillProfiles(list, profiles) {
    list.replaceChildren();
    profiles.forEach((p) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#/profile/" + p.pid;
      const data = p.data || {};
      const name = [data.surname, data.firstName, data.patronymic].filter(Boolean).join(" ") || "—";
      link.textContent = [name, data.birthDate, p.pid].filter(Boolean).join(" · ");
      item.append(link);
      list.append(item);
    });
    return list;
  }

  // ---- merge, after a confirmation --------------------------------------------------------------------------
  /**
   * A merge moves every profile of the source, not only those that matched: the confirmation lists them all, as
   * read now rather than when the list was drawn, so that what it promises is what the service holds.
   */
  async function ask(uid) {
    try {
      const user = await userOf(uid);
      if (!user || user.uid === shown.uid) {
        say(t("matches.gone", { uid }), true);
        return;
      }
      confirming = { source: user.uid, target: shown.uid, profiles: user.profiles };
      result = null;
      renderResult();
      renderConfirmation();
      $("match-confirm-cancel").focus();
      $("match-confirm").scrollIntoView({ block: "nearest" });
    } catch (e) {
      fail(e);
    }
  }
  function renderConfirmation() {
    const box = $("match-confirm");
    box.hidden = !confirming;
    if (!confirming) return;
    box.dataset.source = confirming.source;
    $("match-confirm-text").textContent = t("matches.confirmText",
      { source: confirming.source, target: confirming.target, n: confirming.profiles.length });
    fillProfiles($("match-confirm-profiles"), confirming.profiles);
  }
  function cancel() {
    const source = confirming && confirming.source;
    confirming = null;
    renderConfirmation();
    say(t("matches.cancelled"));
    const button = document.querySelector("#matches button.match-merge[data-uid='" + source + "']");
    if (button) button.focus();
  }
  async function merge() {
    if (!confirming) return; // a second click while the first is on its way
    const { source, target, profiles } = confirming;
    confirming = null;
    renderConfirmation();
    try {
      const merged = (await api("POST", "/v1/users/" + encodeURIComponent(target) + "/merge", { sources: [source] })).json;
      // the page again as it is now: the user's profiles, its merges (each with its unmerge), the matches left
      await reopen();
      const moved = Object.values(merged.moved).flat();
      const confirmed = new Set(profiles.map((p) => p.pid));
      // the service takes no version of the source: a profile added to it after the confirmation moved too
      result = { source, target, moved, unconfirmed: moved.filter((pid) => !confirmed.has(pid)) };
      renderResult();
      say(t("merge.done"));
      $("match-result").focus();
    } catch (e) {
      fail(e);
    }
  }
  function renderResult() {
    const line = $("match-result");
    line.hidden = !result;
    if (!result) return;
    line.textContent = t("matches.merged", { source: result.source, target: result.target, pids: result.moved.join(", ") })
      + (result.unconfirmed.length ? " " + t("matches.mergedMore", { source: result.source, pids: result.unconfirmed.join(", ") }) : "");
    line.tabIndex = -1;
  }

  $("match-confirm-merge").addEventListener("click", merge);
  $("match-confirm-cancel").addEventListener("click", cancel);
  return { show, render };
};
