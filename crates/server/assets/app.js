// The web board's pages: log in, lobby, game, a player's games, review, SGF judge.
// Plain DOM and fetch; the server decides every rule, this code only shows what it says.

import { t, tf, setLang, getLang, reasonText, tn } from "./i18n.js";
import { BoardView, placeMove, moveNumbers, parsePoint } from "./board.js";
import { clockAt, fmtTime, fmtSpan, soundOn, setSound, beep, chime, stoneClick, describeControl, parseControl } from "./clock.js";
// The event pages' module (and its style) are fetched when first needed, not by every page.
let eventsModule = null;
const events = () => (eventsModule ||= import("./events.js"));

const main = document.getElementById("main");
const session = { me: null };
// Timings read by the browser tests (and by anyone curious, from the console), in ms:
// `sent[n]`: the click or key press that played move n (epoch time, comparable between two
// browsers of one machine); `drawn[n]` / `rendered[n]`: move n put on this page's board / first
// painted; `boardReady`: since the navigation started, the game's board first painted with the
// game's state. What the clocks did, for the same readers: `warned`, the stages the page warned
// were ending (`basic`, `pp-4`, `period-2`…), `beeps` the warning sounds played; and `sockets`,
// the game's WebSocket connections tried, `retrying` whether another is planned.
// `told`: what the page called the player's attention to ({kind, text, href}).
const perf = (window.__ingo = { rendered: {}, drawn: {}, sent: {}, boardDrawn: null, boardReady: null, warned: [], beeps: 0, sockets: 0, retrying: false, told: [] });
const now = () => performance.timeOrigin + performance.now();
/** Runs `f` once the page has been painted after what was just drawn. */
const afterPaint = (f) => requestAnimationFrame(() => setTimeout(f, 0));
// A game page opened directly (or reloaded) asks for the game at once, beside /api/me: the
// page's inline script has already done so (index.html).
const boot = window.__ingoEarly || {};
let early = boot.game || null;

// ---------------------------------------------------------------- helpers

/** `h("p", {class: "x", onclick: f}, "text", child)`: an element. */
function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** A JSON request; throws `{status, reason, message}` on a refusal. */
async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (session.me && method !== "GET") headers["X-CSRF-Token"] = session.me.csrf;
  const r = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!r.ok) {
    const err = new Error((data && data.message) || `${r.status} ${r.statusText}`);
    Object.assign(err, { status: r.status, reason: data && data.reason });
    throw err;
  }
  return data;
}

function colorName(c) { return c === "B" ? t("black") : t("white"); }

function errorBox() { return h("p", { class: "error", role: "alert", "aria-live": "assertive" }); }

// ---------------------------------------------------------------- header and routing

function header() {
  const nav = document.getElementById("nav");
  nav.replaceChildren(
    h("a", { href: "#/" }, t("lobby")),
    h("a", { href: "#/judge" }, t("judge")),
    ...(session.me
      ? [h("a", { href: `#/user/${encodeURIComponent(session.me.name)}`, id: "me" }, `${session.me.name} (${session.me.rank})`),
         h("button", { class: "link", onclick: logout }, t("logout"))]
      : [h("a", { href: "#/login" }, t("login"))]),
  );
  if (session.me) nav.append(alertSettings());
  nav.append(attentionBox);
  const sel = document.getElementById("lang");
  sel.value = getLang();
  showTitle();
}

// ---------------------------------------------------------------- being told

// What needs the player, wherever they are on the site: a challenge of theirs accepted, their
// turn in a game, their clock running low. Told by the page's title (until the page is looked
// at again), a line under the header with a link, a sound when allowed, and a browser
// notification when allowed and the page is not in front. Each choice is remembered here.
const pref = (k) => localStorage.getItem(k) === "1";
const setPref = (k, on) => localStorage.setItem(k, on ? "1" : "0");
let attention = null; // the text the title shows, until the page is looked at
const attentionBox = h("span", { id: "attention", class: "attention", role: "status", "aria-live": "polite", hidden: true });
const toldKeys = new Set(); // what was told already: once per challenge, move and clock stage

function showTitle() {
  document.title = attention ? `● ${attention} — ${t("title")}` : t("title");
}

/** Tells the player `text` (`kind`: `accepted`, `turn` or `clock`), once per `key`; `href`: where it happens. */
function tell(kind, text, href, key = `${kind}:${href}:${text}`) {
  if (toldKeys.has(key)) return;
  toldKeys.add(key);
  perf.told.push({ kind, text, href });
  // The same call again (one's turn, move after move, in a window looked away from) changes
  // nothing on the page: the line under the header is not redrawn, nor the page laid out again.
  const link = !!href && location.hash !== href;
  const same = attention === text && !attentionBox.hidden && attentionBox.dataset.href === (href || "") && attentionBox.dataset.link === String(link);
  attention = text;
  if (!same) {
    showTitle();
    attentionBox.hidden = false;
    attentionBox.dataset.href = href || "";
    attentionBox.dataset.link = String(link);
    attentionBox.replaceChildren(text, " ", link ? h("a", { href }, t("go_to_game")) : "");
  }
  if (pref("ingo-alert-sound")) chime();
  if (pref("ingo-notify") && "Notification" in window && Notification.permission === "granted" && (document.hidden || !document.hasFocus())) {
    try {
      const n = new Notification("ingo", { body: text, tag: key });
      n.onclick = () => { window.focus(); if (href) location.hash = href; };
    } catch { /* not allowed here */ }
  }
}

/** Whether the player is looking elsewhere (another tab or window). */
function away() { return document.hidden || !document.hasFocus(); }

/** The page is looked at again: the title goes back to itself. */
function seen() {
  if (!attention) return;
  attention = null;
  showTitle();
}
window.addEventListener("focus", seen);
document.addEventListener("visibilitychange", () => { if (!document.hidden) seen(); });
document.addEventListener("pointerdown", seen);
document.addEventListener("keydown", seen);

/** The alert settings in the header: sound, stone sounds, browser notifications. */
function alertSettings() {
  const box = (id, key, label, onchange) => h("label", {}, h("input", { type: "checkbox", id, checked: pref(key), onchange: (e) => { setPref(key, e.target.checked); if (onchange) onchange(e); } }), label);
  const denied = h("small", { id: "notify-denied", hidden: !("Notification" in window) || Notification.permission !== "denied" }, t("alert_denied"));
  return h("details", { id: "alerts", class: "alerts" }, h("summary", {}, t("alerts")),
    h("div", { class: "alerts-box" },
      box("alert-sound", "ingo-alert-sound", t("alert_sound"), (e) => { if (e.target.checked) chime(); }),
      box("stone-sound", "ingo-stone-sound", t("stone_sound"), (e) => { if (e.target.checked) stoneClick(); }),
      box("alert-notify", "ingo-notify", t("alert_notify"), async (e) => {
        if (!e.target.checked || !("Notification" in window) || Notification.permission === "granted") return;
        const answer = await Notification.requestPermission();
        denied.hidden = answer !== "denied";
        if (answer !== "granted") { e.target.checked = false; setPref("ingo-notify", false); }
      }),
      denied));
}

/** The challenges this tab made (or accepted, waiting for other seats), which the lobby follows. */
function myChallenges() { return new Set(JSON.parse(sessionStorage.getItem("ingo-challenges") || "[]")); }
function setMyChallenges(set) { sessionStorage.setItem("ingo-challenges", JSON.stringify([...set])); }

/** Challenge `c`, no longer open, started game `gid`: told, naming the other side. */
async function toldAccepted(c, gid) {
  let name = c.opponent;
  try {
    const st = await api("GET", `/api/games/${gid}`);
    const me = session.me && session.me.name;
    const others = [...(st.team ? [...st.team.black, ...st.team.white] : [st.black, st.white])].filter((p) => p.name !== me);
    name = others.map((p) => p.name).join(" & ") || name;
  } catch { /* named as the challenge names it */ }
  tell("accepted", tf("alert_accepted", { name: name || "?" }), `#/game/${gid}`, `accepted:${c.id}`);
}

// The watch over the player's games and challenges from any page but the one showing them
// (the lobby follows the challenges, a game page its game): every few seconds, what the
// server says of them.
const watching = { page: "", game: null, busy: false, ticks: 0, games: [] };
async function watchTick() {
  if (!session.me || watching.busy) return;
  watching.busy = true;
  try {
    const mine = myChallenges();
    if (watching.page !== "lobby" && mine.size) {
      const open = new Set((await api("GET", "/api/challenges")).map((c) => c.id));
      for (const id of mine) {
        if (open.has(id)) continue;
        mine.delete(id);
        setMyChallenges(mine);
        const c = await api("GET", `/api/challenges/${id}`).catch(() => null);
        if (c && c.game_id) await toldAccepted(c, c.game_id);
      }
    }
    // The player's games in progress, asked every fourth tick; each one's state every tick.
    if (watching.ticks++ % 4 === 0) {
      // Those waiting for the player first, as the server orders them.
      const mine = await api("GET", "/api/games/mine").catch(() => []);
      watching.games = mine.map((x) => x.id).slice(0, 10);
    }
    for (const gid of watching.games) {
      if (String(gid) === watching.game) continue;
      const st = await api("GET", `/api/games/${gid}`).catch(() => null);
      if (st) watchGame(st);
    }
  } catch { /* asked again at the next tick */ } finally { watching.busy = false; }
}
setInterval(watchTick, 2000);

/** The side of the player in game state `st`, or null. */
function sideOf(st) {
  if (!session.me) return null;
  const me = session.me.id;
  if (st.team) return st.team.black.some((p) => p.id === me) ? "B" : st.team.white.some((p) => p.id === me) ? "W" : null;
  return st.black.id === me ? "B" : st.white.id === me ? "W" : null;
}

/** Tells what game state `st` asks of the player: their turn, their clock running low. */
function watchGame(st, at = 0) {
  const side = sideOf(st);
  if (!side || st.phase === "ended") return;
  const href = `#/game/${st.id}`;
  const who = { black: st.black.name, white: st.white.name };
  const member = st.team && st.team.to_move;
  const mine = st.to_move === side && (!member || member.id === session.me.id);
  if (mine && st.phase === "playing") tell("turn", tf("alert_turn", who), href, `turn:${st.id}:${st.move_count}`);
  const clock = st.clocks && (side === "B" ? st.clocks.black : st.clocks.white);
  if (clock && clock.running && st.phase === "playing") {
    const r = clockAt(clock, at);
    if (r.warn) tell("clock", tf("alert_clock", who), href, `clock:${st.id}:${st.move_count}:${r.stage}`);
  }
}

async function logout() {
  try { await api("POST", "/api/logout", {}); } catch { /* already gone */ }
  session.me = null;
  location.hash = "#/";
  route();
}

// What the event pages (events.js) use of this module.
const eventCtx = { api, session, main, h };

let cleanup = null;

async function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  header();
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  main.replaceChildren();
  const page = { "": lobby, login: loginPage, game: gamePage, user: userPage, review: reviewPage, judge: judgePage,
    event: async (...a) => (await events()).route(eventCtx, "event", ...a),
    events: async (...a) => (await events()).route(eventCtx, "events", ...a) }[parts[0]];
  // Arrived where the last call for attention pointed: it is answered.
  if (attentionBox.dataset.href === location.hash) attentionBox.hidden = true;
  watching.page = page ? parts[0] || "lobby" : "lobby";
  watching.game = parts[0] === "game" ? parts[1] : null;
  cleanup = (page ? await page(...parts.slice(1)) : lobby()) || null;
}

// ---------------------------------------------------------------- log in / register

function loginPage() {
  const form = (kind) => {
    const err = errorBox();
    const f = h("form", { class: "card", id: `${kind}-form` },
      h("h2", {}, t(kind)),
      h("label", {}, t("name"), h("input", { name: "name", required: true, autocomplete: "username", maxlength: 32 })),
      h("label", {}, t("password"), h("input", { name: "password", type: "password", required: true, minlength: kind === "register" ? 8 : undefined, autocomplete: kind === "register" ? "new-password" : "current-password" })),
      kind === "register" ? h("label", {}, t("rank"), h("input", { name: "rank", value: "1d" })) : null,
      h("button", { type: "submit" }, t(kind)),
      err);
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      const d = Object.fromEntries(new FormData(f));
      try {
        session.me = await api("POST", `/api/${kind}`, d);
        location.hash = "#/";
      } catch (x) { err.textContent = x.message; }
    });
    return f;
  };
  main.append(h("div", { class: "two" }, form("login"), form("register")));
}

// ---------------------------------------------------------------- lobby

const TIME_CONTROLS = ["ing-pp:1h", "ing-pp:30m", "ing-pp:10m", "ing-pp:3h", "ing-rs:30m+3x30s", "byoyomi:10m+5x30s", "fischer:10m+10s", "none"];

// The time controls offered by name, each said in words; "other" leaves the text box to the
// player (any control the clock crate reads).
const TC_PRESETS = [
  ["blitz", "byoyomi:5m+3x10s"], ["rapid", "byoyomi:20m+5x30s"], ["fischer", "fischer:10m+10s"],
  ["ing_short", "ing-pp:30m"], ["ing_hour", "ing-pp:1h"], ["ing_cup", "ing-pp:3h"],
  ["ing_rs", "ing-rs:30m+3x30s"], ["correspondence", "fischer:3d+3d[max 3d]"], ["untimed", "none"],
];

/** A time control field: presets in words, the text box for the rest, and the words of what is typed. */
function timeControlField(value) {
  const input = h("input", { name: "time_control", list: "tcs", value, autocomplete: "off" });
  const words = h("small", { class: "tc-words" });
  const presetOf = (tc) => (TC_PRESETS.find((p) => p[1] === tc.trim().toLowerCase()) || ["other"])[0];
  const select = h("select", { name: "tc_preset", "aria-label": t("tc_preset"), onchange: (e) => {
    const p = TC_PRESETS.find((x) => x[0] === e.target.value);
    if (p) input.value = p[1];
    else input.focus();
    say();
  } },
  TC_PRESETS.map(([k, tc]) => h("option", { value: k }, `${t(`preset_${k}`)}: ${describeControl(parseControl(tc), tf)}`)),
  h("option", { value: "other" }, t("preset_other")));
  function say() {
    const k = parseControl(input.value);
    words.textContent = k ? describeControl(k, tf) : input.value.trim() ? t("tc_unread") : "";
    select.value = presetOf(input.value);
  }
  input.addEventListener("input", say);
  say();
  return h("label", {}, t("time_control"), select, input, words);
}

/** The lobby's list of events: a place held until the event module has come. */
function lobbyEvents() {
  const place = h("div", { class: "events-place" });
  events().then((m) => place.append(m.lobbyEvents(eventCtx))).catch(() => {});
  return place;
}

function lobby() {
  const err = errorBox();
  // A refusal of what was pressed in the list (accept, cancel) is shown under the list.
  const listErr = errorBox();
  listErr.id = "challenges-error";
  const challenges = h("ul", { id: "challenges", class: "list" });
  const games = h("ul", { id: "live-games", class: "list" });
  const yourList = h("ul", { id: "your-games", class: "list" });
  const yours = h("div", { id: "your-games-box", hidden: !session.me }, h("h2", {}, t("your_games")), yourList);
  const mine = new Set(JSON.parse(sessionStorage.getItem("ingo-challenges") || "[]"));
  const sizes = [];
  for (let s = 9; s <= 19; s++) sizes.push(h("option", { value: s, selected: s === 19 }, `${s}×${s}`));
  const form = h("form", { class: "card", id: "challenge-form" },
    h("h2", {}, t("new_challenge")),
    h("label", {}, t("size"), h("select", { name: "size" }, sizes)),
    h("label", {}, t("handicap"), h("select", { name: "handicap" },
      h("option", { value: "nigiri" }, t("nigiri")), h("option", { value: "ranks" }, t("by_ranks")))),
    timeControlField("ing-pp:1h"),
    h("datalist", { id: "tcs" }, TIME_CONTROLS.map((x) => h("option", { value: x }))),
    h("label", {}, t("kind"), h("select", { name: "kind", id: "challenge-kind", onchange: (e) => showTeam(e.target.value) },
      h("option", { value: "single" }, t("kind_single")), h("option", { value: "pair" }, t("kind_pair")),
      h("option", { value: "consultation" }, t("kind_consultation")))),
    h("label", { class: "single-only" }, t("opponent"), h("input", { name: "opponent", placeholder: t("anyone"), autocomplete: "off" })),
    h("label", { class: "team-only", hidden: true }, t("partners"), h("input", { name: "partners", autocomplete: "off", placeholder: t("names_hint") })),
    h("label", { class: "team-only", hidden: true }, t("opponents"), h("input", { name: "opponents", autocomplete: "off", placeholder: t("names_hint") })),
    h("label", { class: "consult-only", hidden: true }, t("agreement"), h("select", { name: "agreement", id: "challenge-agreement" },
      h("option", { value: "all" }, t("agreement_all")), h("option", { value: "majority" }, t("agreement_majority")),
      h("option", { value: "any" }, t("agreement_any")))),
    h("button", { type: "submit", disabled: !session.me }, t("create")),
    err);
  // Pair go and consultation: the challenger names every seat; each named player accepts.
  function showTeam(kind) {
    for (const el of form.querySelectorAll(".team-only")) el.hidden = kind === "single";
    for (const el of form.querySelectorAll(".single-only")) el.hidden = kind !== "single";
    for (const el of form.querySelectorAll(".consult-only")) el.hidden = kind !== "consultation";
  }
  const names = (text) => (text || "").split(/[,，、\s]+/).filter(Boolean);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const d = Object.fromEntries(new FormData(form));
    const body = { size: Number(d.size), handicap: d.handicap, time_control: d.time_control || undefined };
    if (d.kind && d.kind !== "single") {
      body.kind = d.kind;
      body.partners = names(d.partners);
      body.opponents = names(d.opponents);
      if (d.kind === "consultation") body.agreement = d.agreement;
    } else if (d.opponent) body.opponent = d.opponent;
    try {
      const c = await api("POST", "/api/challenges", body);
      if (c.game_id) { location.hash = `#/game/${c.game_id}`; return; }
      mine.add(c.id);
      sessionStorage.setItem("ingo-challenges", JSON.stringify([...mine]));
      err.textContent = "";
      refresh();
    } catch (x) { err.textContent = x.message; }
  });

  // The built-in player (ingo's MCTS player; its strength is its playouts per move).
  const botErr = errorBox();
  const botForm = h("form", { class: "card", id: "bot-form" },
    h("h2", {}, t("play_bot")),
    h("label", {}, t("size"), h("select", { name: "size" }, sizes.map((o) => o.cloneNode(true)))),
    h("label", {}, t("strength"), h("select", { name: "playouts" },
      h("option", { value: 100 }, t("weak")), h("option", { value: 1000, selected: true }, t("medium")), h("option", { value: 10000 }, t("strong")))),
    h("label", {}, t("your_color"), h("select", { name: "color" },
      h("option", { value: "nigiri" }, t("nigiri")), h("option", { value: "black" }, t("black")), h("option", { value: "white" }, t("white")),
      h("option", { value: "ranks" }, t("by_ranks")))),
    timeControlField("ing-pp:1h"),
    h("button", { type: "submit", disabled: !session.me }, t("play_bot")),
    botErr);
  // Each level's rank, measured on 19×19 (GET /api/bot-levels): shown with its name, and what
  // it rests on as the option's title.
  api("GET", "/api/bot-levels").then((levels) => {
    const sel = botForm.querySelector("select[name=playouts]");
    for (const l of levels) {
      const o = [...sel.options].find((x) => x.value === String(l.playouts));
      if (!o) continue;
      o.textContent = tf("level_rank", { level: t(l.name), rank: l.rank_ing });
      o.title = `${l.even_at}. ${l.measured}`;
    }
  }).catch(() => {});
  // The GTP engines the operator configured join the opponents (value "engine:NAME").
  api("GET", "/api/engines").then((list) => {
    const sel = botForm.querySelector("select[name=playouts]");
    for (const x of list) sel.append(h("option", { value: `engine:${x.name}` }, `${x.name} (${x.rank})`));
  }).catch(() => {});
  botForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const d = Object.fromEntries(new FormData(botForm));
    try {
      const engine = d.playouts.startsWith("engine:") ? d.playouts.slice(7) : null;
      const r = engine
        ? await api("POST", "/api/games/engine", { engine, size: Number(d.size), color: d.color, time_control: d.time_control || undefined })
        : await api("POST", "/api/games/bot", { size: Number(d.size), playouts: Number(d.playouts), color: d.color, time_control: d.time_control || undefined });
      location.hash = `#/game/${r.game_id}`;
    } catch (x) { botErr.textContent = x.message; }
  });

  async function refresh() {
    let list, live;
    let myGames = [];
    try {
      [list, live, myGames] = await Promise.all([api("GET", "/api/challenges"), api("GET", "/api/games"),
        session.me ? api("GET", "/api/games/mine").catch(() => []) : []]);
    } catch { return; }
    const open = new Set(list.map((c) => c.id));
    // A challenge of mine that is no longer open: accepted? Then go to its game.
    for (const id of mine) {
      if (open.has(id)) continue;
      mine.delete(id);
      sessionStorage.setItem("ingo-challenges", JSON.stringify([...mine]));
      try {
        const c = await api("GET", `/api/challenges/${id}`);
        if (c.game_id) { await toldAccepted(c, c.game_id); location.hash = `#/game/${c.game_id}`; return; }
        // Declined: the challenger is told by whom (a team challenge: by one of its seats).
        if (c.status === "declined") {
          listErr.dataset.reason = "declined";
          listErr.textContent = tf("declined_by", { name: c.opponent || (c.seats || []).filter((x) => x.side === "opponent").map((x) => x.name).join(" & ") || "?" });
        }
      } catch { /* gone */ }
    }
    // A team challenge: its sides with each seat's acceptance; only a seat's player accepts.
    const teamText = (c) => {
      const side = (s) => c.seats.filter((x) => x.side === s).map((x) => `${x.name}${x.accepted ? " ✓" : ""}`).join(" & ");
      const how = c.agreement ? ` (${t(`agreement_${c.agreement}`)})` : "";
      return `${t(`kind_${c.kind}`)}${how}: ${side("challenger")} – ${side("opponent")}`;
    };
    const mySeat = (c) => c.seats && session.me && c.seats.find((x) => x.name === session.me.name);
    // A challenge offered to one player is that player's to accept.
    const canAccept = (c) => (c.seats ? mySeat(c) && !mySeat(c).accepted : !c.opponent || c.opponent === session.me.name);
    // Only a player a challenge is offered to may decline it (an open one is simply left).
    const canDecline = (c) => (c.seats ? mySeat(c) && c.challenger !== session.me.name : c.opponent === session.me.name);
    const decline = (c) => (canDecline(c) ? h("button", { class: "decline", onclick: async () => {
      try { await api("POST", `/api/challenges/${c.id}/decline`, {}); listErr.textContent = ""; } catch (x) { listErr.textContent = reasonText(x); }
      refresh();
    } }, t("decline")) : null);
    // What the viewer may do with challenge `c`: the challenger cancels; a player it is
    // offered to accepts or declines; a seat taken waits for the others.
    const actions = (c) => {
      if (!session.me) return [];
      if (session.me.name === c.challenger) {
        return [h("button", { onclick: async () => { await api("POST", `/api/challenges/${c.id}/cancel`, {}).catch((x) => { listErr.textContent = x.message; }); refresh(); } }, t("cancel"))];
      }
      if (canAccept(c)) {
        return [h("button", { class: "accept", onclick: async () => {
          try {
            const r = await api("POST", `/api/challenges/${c.id}/accept`, {});
            if (r.game_id) { location.hash = `#/game/${r.game_id}`; return; }
            // Waiting for the other seats: follow the challenge until its game starts.
            mine.add(c.id);
            sessionStorage.setItem("ingo-challenges", JSON.stringify([...mine]));
            refresh();
          } catch (x) { listErr.textContent = reasonText(x); }
        } }, t("accept")), decline(c)];
      }
      if (mySeat(c)) return [h("small", {}, t("waiting_seats"))];
      return c.opponent ? [h("small", { class: "for-other" }, tf("not_for_you", { name: c.opponent }))] : [];
    };
    // How the colours are chosen; a rematch names the challenger's.
    const colorsText = (c) => (c.handicap === "nigiri" ? t("nigiri") : c.handicap === "ranks" ? t("by_ranks")
      : tf("challenger_takes", { name: c.challenger, color: colorName(c.handicap === "black" ? "B" : "W") }));
    // The rules by name, and a game's komi and handicap passes (讓手), as the game page says them.
    const rulesText = (r) => (r === "ing" ? t("rules_ing") : tf("rules_other", { name: r }));
    const gameTerms = (g) => [rulesText(g.rules), tf("komi_only", { komi: g.komi })]
      .concat(g.handicap_passes > 0 ? [tf("handicap_passes", { n: g.handicap_passes })] : []).join(" · ");
    // The time control in words beside its text.
    const words = (tc) => { const k = parseControl(tc); return k ? h("small", { class: "tc-words" }, describeControl(k, tf)) : null; };
    // Drawn anew only when it changed: a button is not replaced under the finger that presses it.
    const key = JSON.stringify([list, live, myGames, session.me && session.me.name, getLang()]);
    if (key === drawnKey) return;
    drawnKey = key;
    challenges.replaceChildren(...(list.length ? list.map((c) => h("li", { "data-challenge": c.id },
      h("span", {}, c.seats
        ? `${teamText(c)} · ${c.size}×${c.size} · ${rulesText(c.rules)} · ${colorsText(c)} · ${c.time_control}`
        : `${c.challenger} (${c.challenger_rank}) · ${c.size}×${c.size} · ${rulesText(c.rules)} · ${colorsText(c)} · ${c.time_control}${c.opponent ? ` · → ${c.opponent}` : ""}`,
        words(c.time_control)),
      ...actions(c))) : [h("li", {}, t("none"))]));
    // The player's own games, those waiting for them first (the server's order).
    yours.hidden = !session.me;
    yourList.replaceChildren(...(myGames.length ? myGames.map((g) => h("li", { "data-my-game": g.id, class: g.your_turn ? "your-turn" : "" },
      h("a", { href: `#/game/${g.id}` }, `${g.black} – ${g.white} · ${g.size}×${g.size} · ${tf("move_n", { n: g.moves })}`),
      " ", h("b", { class: "turn" }, g.your_turn ? t("your_turn") : t("their_turn")),
      words(g.time_control))) : [h("li", {}, t("none"))]));
    games.replaceChildren(...(live.length ? live.map((g) => h("li", {},
      h("a", { href: `#/game/${g.id}` }, `${g.black} – ${g.white} · ${g.size}×${g.size} · ${t(`phase_${g.phase}`)}`), " ",
      h("small", { class: "terms" }, gameTerms(g)), words(g.time_control), " ",
      h("a", { href: `#/game/${g.id}`, class: "button" }, t("watch")))) : [h("li", {}, t("none"))]));
  }
  // The viewer's last finished games, with their opponents: asked as the lobby opens and every
  // fifth refresh (a game's end is stored just after it is told).
  const myFinished = h("div", { id: "my-finished-box" });
  let ticks = 0;
  let drawnKey = null; // what the lists were drawn from
  let finishedKey = null;
  function loadFinished() {
    if (!session.me) return;
    api("GET", `/api/users/${encodeURIComponent(session.me.name)}`).then((u) => {
      const games = u.games.slice(0, 10);
      const key = JSON.stringify(games);
      if (key === finishedKey) return;
      finishedKey = key;
      myFinished.replaceChildren(h("h2", {}, t("your_finished_games")), finishedList(games, "my-finished"));
    }).catch(() => {});
  }
  if (!session.me) main.append(h("p", { class: "note" }, h("a", { href: "#/login" }, t("login")), " · ", t("not_logged")));
  main.append(
    h("div", { class: "two" },
      h("section", { id: "challenges-section" }, yours, h("h2", {}, t("open_challenges")), challenges, listErr, h("h2", {}, t("live_games")), games, lobbyEvents(), myFinished),
      h("div", {}, form, botForm)));
  refresh();
  const timer = setInterval(() => { refresh(); if (++ticks % 5 === 0) loadFinished(); }, 1000);
  loadFinished();
  return () => clearInterval(timer);
}

// ---------------------------------------------------------------- the game page

/** What a game is, in words: its rules, komi and tie rule, time control and handicap passes. */
function aboutGame(g) {
  const bits = [g.rules === "ing" ? t("rules_ing") : tf("rules_other", { name: g.rules })];
  bits.push(tf("komi_tie", { komi: g.komi, color: colorName(g.tie_winner || "B") }));
  const k = g.clocks && g.clocks.black && g.clocks.black.control;
  if (k) bits.push(tf("time_words", { tc: describeControl(k, tf) }));
  if (g.handicap_passes > 0) bits.push(tf("handicap_passes", { n: g.handicap_passes }));
  return bits.join(" · ");
}

/**
 * A side's clock as the page runs it (`clockAt`, from the state's clock `c`, `x` ms after it was
 * taken): the phase (basic or main time, overtime, time run out), the time, what follows the
 * main time (byo-yomi periods, Canadian stones, Fischer's increment) and Ing's penalty points.
 */
function clockView(c, x) {
  if (!c) return h("span", {}, "—");
  const r = clockAt(c, x);
  const k = c.control || { kind: "none" };
  if (!r.timed) return h("span", { class: "clock", "data-phase": "untimed" }, "∞");
  const phase = r.lost ? "lost" : r.in_overtime ? "overtime" : "basic";
  const parts = [];
  const time = (ms) => h("b", { class: "time" }, fmtTime(ms));
  const label = (key) => h("span", { class: "label" }, t(key));
  if (r.lost) parts.push(label("time_up"), " ", time(0));
  else if (!r.in_overtime) parts.push(label(k.kind === "ing-pp" || k.kind === "ing-rs" ? "basic" : "main_time"), " ", time(r.main_ms));
  else parts.push(label(k.kind === "byoyomi" || k.kind === "ing-rs" ? "byoyomi" : "overtime"), " ", time(r.main_ms));
  if (k.kind === "byoyomi" || k.kind === "ing-rs") {
    // The periods, shown during the main time too.
    parts.push(` · ${r.in_overtime || r.lost ? tf("periods_left", { n: r.periods_or_stones }) : `${r.periods_or_stones} × ${fmtSpan(k.period_ms)}`}`);
  } else if (k.kind === "canadian") {
    parts.push(` · ${r.in_overtime ? tf("stones_in_period", { n: r.periods_or_stones }) : tf("then_stones", { n: k.stones, t: fmtSpan(k.period_ms) })}`);
  } else if (k.kind === "fischer") {
    parts.push(` · +${fmtSpan(k.increment_ms)}${k.max_ms ? ` (${t("max")} ${fmtSpan(k.max_ms)})` : ""}`);
  }
  if (k.kind === "ing-pp") {
    parts.push(" · ", h("span", { class: r.penalty_points ? "penalty on" : "penalty" }, `${r.penalty_points} ${t("penalty")}`));
    if (r.in_overtime && !r.lost && r.penalty_points < 6) parts.push(` (${tf("next_penalty", { n: r.penalty_points + 2, t: fmtTime(r.next_ms) })})`);
  }
  const cls = ["clock", c.running ? "running" : "", r.warn && c.running ? "warn" : "", r.lost ? "lost" : ""].filter(Boolean).join(" ");
  return h("span", { class: cls, "data-phase": phase, "data-penalty": r.penalty_points, "data-periods": r.periods_or_stones, "data-stage": r.stage }, parts);
}

function countView(g) {
  const s = g.result && g.result.score;
  if (!s) return null;
  const f = s.fill_in || {};
  const row = (label, b, w) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, String(b)), h("td", {}, String(w)));
  const pair = (o) => (o ? [o.black, o.white] : [0, 0]);
  const sl = pair(f.spaces_left), st = pair(f.stones_left), ps = pair(f.penalty_stones);
  // What is left after filling, as the referee reads it: spaces (勝空) or stones (負子).
  const left = (spaces, stones) => (spaces > 0 ? tn("spaces_left", spaces) : stones > 0 ? tn("stones_left", stones) : t("filled_exactly"));
  const net = (v) => (v > 0 ? tn("spaces_left", v) : v < 0 ? tn("stones_left", -v) : "0");
  return h("section", { class: "count card", id: "count" },
    h("h2", {}, t("count")),
    h("div", { class: "count-grid" },
    h("img", { src: `/api/games/${g.id}/count.svg`, alt: t("count"), class: "count-svg", decoding: "async" }),
    h("div", {},
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}), h("th", {}, t("black")), h("th", {}, t("white")))),
      h("tbody", {},
        row(`${t("area")} (${t("stones_w")} + ${t("spaces")})`, `${s.stones.black} + ${s.spaces.black} = ${s.area.black}`, `${s.stones.white} + ${s.spaces.white} = ${s.area.white}`),
        row(t("shared"), s.shared, s.shared),
        row(tf("fill", { n: f.supply }), f.filled ? f.filled.black : "", f.filled ? f.filled.white : ""),
        row(t("left_after"), left(sl[0], st[0]), left(sl[1], st[1])),
        row(t("compensation"), "", `${f.compensation_stones} (${t("komi")} ${s.komi})`),
        row(t("penalty_stones"), ps[0], ps[1]),
        row(t("net"), net(f.black_net), net(f.white_net)),
      )),
    h("p", { class: "margin" }, `${t("margin")}: ${tn("points", Math.abs(s.margin))} → `, h("b", { id: "result-text" }, s.result)))));
}

function gamePage(id) {
  const gid = id;
  // The timing record is per game page: opening another game changes only the address's `#`,
  // and a record kept from the previous game would mix its move numbers into this one's.
  Object.assign(perf, { rendered: {}, drawn: {}, sent: {}, boardDrawn: null, boardReady: null, warned: [], beeps: 0, sockets: 0, retrying: false });
  let g = null; // the state as the server last gave it
  let received = 0; // when g.clocks was read
  let myColor = null;
  let resuming = false;
  let ws = null;
  let closed = false;
  let retry = null;
  let showNumbers = localStorage.getItem("ingo-numbers") === "1";
  const notice = h("p", { class: "error", id: "notice", role: "alert", "aria-live": "assertive" });
  let illegal = null;
  const boardBox = h("div", { class: "board-box" });
  const info = { B: h("div", { class: "player black" }), W: h("div", { class: "player white" }) };
  const status = h("p", { id: "status", "aria-live": "polite" });
  const about = h("p", { id: "game-info", class: "game-info" }); // what the game is
  const panel = h("div", { id: "phase-panel" });
  // A request to take back a move: the asker's button, the opponent's Grant and Decline (the
  // server decides whether one may ask: none in an event's game, where its refusal is shown).
  const undoBox = h("div", { id: "undo-box" });
  const countBox = h("div", { id: "count-box" });
  const chats = h("div", { class: "chats" });
  const chatLists = {};
  let board = null;

  const passBtn = h("button", { id: "pass", onclick: (e) => play("pass", e.timeStamp) }, t("pass"));
  const resignBtn = h("button", { id: "resign", class: "danger", onclick: async () => {
    if (!confirm(t("resign") + "?")) return;
    try {
      const r = await api("POST", `/api/games/${gid}/resign`, {});
      if (r && r.proposed) { setProposals(r.proposals); notice.textContent = t("proposed"); } else { g = r; render(); }
    } catch (x) { notice.textContent = reasonText(x); }
  } }, t("resign"));
  const numbersBox = h("input", { type: "checkbox", id: "numbers", checked: showNumbers, onchange: (e) => {
    showNumbers = e.target.checked;
    localStorage.setItem("ingo-numbers", showNumbers ? "1" : "0");
    render();
  } });
  // The confirm step: a tap chooses a point, a second tap there or the button plays it. On by
  // default on a touch screen (19×19 points are under 20 px apart on a phone), remembered.
  const touch = matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
  const confirmPref = localStorage.getItem("ingo-confirm");
  let confirmMoves = confirmPref === null ? touch : confirmPref === "1";
  let tentative = null; // the point chosen, waiting for its confirmation
  const confirmBox = h("input", { type: "checkbox", id: "confirm-moves", checked: confirmMoves, onchange: (e) => {
    confirmMoves = e.target.checked;
    localStorage.setItem("ingo-confirm", confirmMoves ? "1" : "0");
    tentative = null;
    render();
  } });
  const confirmBtn = h("button", { id: "confirm-move", class: "primary", hidden: true, onclick: (e) => {
    const p = tentative;
    tentative = null;
    if (p) play(p, e.timeStamp);
  } });
  const cancelBtn = h("button", { id: "cancel-move", hidden: true, onclick: () => { tentative = null; render(); } }, t("cancel"));
  const confirmLabel = h("label", { id: "confirm-label" }, confirmBox, t("confirm_moves"));
  const soundBox = h("input", { type: "checkbox", id: "clock-sound", checked: soundOn(), onchange: (e) => setSound(e.target.checked) });
  const hint = h("small", { class: "hint" }, t("keys"));
  // A score estimate asked for during play: the server's end-of-game judgement of the position
  // as it stands (owners and dead stones drawn on the board), dropped when a move is played.
  let estimate = null;
  const estimateText = h("p", { id: "estimate", class: "estimate", "aria-live": "polite", hidden: true });
  const estimateBtn = h("button", { id: "estimate-btn", hidden: true, onclick: async () => {
    if (estimate) { estimate = null; render(); return; }
    try {
      const e = await api("GET", `/api/games/${gid}/estimate`);
      if (g && e.move_count === g.move_count) estimate = e;
      notice.textContent = "";
    } catch (x) { notice.textContent = reasonText(x); }
    render();
  } }, t("estimate"));
  // Hidden until the game's state is known: an unknown game shows no board controls.
  const controls = h("div", { class: "controls", hidden: true }, confirmBtn, cancelBtn, passBtn, resignBtn, estimateBtn,
    h("label", {}, numbersBox, t("numbers")),
    confirmLabel,
    h("label", { title: t("clock_sound_hint") }, soundBox, t("clock_sound")),
    h("a", { href: `/api/games/${gid}/sgf`, download: `ingo-${gid}.sgf`, id: "sgf" }, t("download")),
    hint);

  main.append(h("div", { class: "game" },
    h("div", { class: "board-col" }, boardBox, controls, notice),
    // What the step needs stays beside the board: the dead stones, the result and the count
    // (on a phone, straight under it: style.css).
    h("div", { class: "side-col" }, info.B, info.W, status, undoBox, estimateText, panel, countBox, about, chats)));

  function dead() { return new Set((g && g.dead_stones && g.dead_stones.proposal) || []); }

  // A move goes over the game's WebSocket when it is open (answered there by `ack` or
  // `error`), else as a POST; `at`: when it was clicked (performance.now() time).
  const pending = new Map(); // number → move sent over the socket, not yet answered
  async function play(mv, at) {
    if (!g || !myColor) return;
    const number = g.move_count + 1;
    perf.sent[number] = performance.timeOrigin + (at ?? performance.now());
    illegal = null;
    if (ws && ws.readyState === WebSocket.OPEN) {
      pending.set(number, mv);
      ws.send(JSON.stringify({ type: "move", move: mv, number }));
      return;
    }
    try {
      const r = await api("POST", `/api/games/${gid}/moves`, { move: mv, number });
      if (r && r.proposed) proposed(r); else accepted(r);
    } catch (x) { refused(x, mv); }
  }

  // A consultation side's move waits for the side's agreement: shown to the side, not played.
  function proposed(r) {
    setProposals(r.proposals);
    notice.textContent = t("proposed");
    notice.dataset.reason = "";
  }

  function accepted(ack) {
    notice.textContent = "";
    notice.dataset.reason = "";
    resuming = false;
    applyMove({
      number: ack.number, color: myColor, move: ack.move, to_move: ack.to_move, phase: ack.phase,
      removed: ack.removed, captures: ack.captures,
    });
  }

  function refused(x, mv) {
    notice.textContent = reasonText(x);
    notice.dataset.reason = x.reason || "";
    if (mv !== "pass") illegal = mv;
    render();
  }

  async function mark(name) {
    const current = dead();
    let next;
    if (current.has(name)) {
      const str = new Set(board.string(name));
      next = [...current].filter((p) => !str.has(p));
    } else next = [...current, name];
    try { g = await api("POST", `/api/games/${gid}/dead`, { dead: next }); received = performance.now(); render(); } catch (x) { notice.textContent = reasonText(x); }
  }

  function onPlay(name, at) {
    if (!g || !myColor) return;
    if (g.phase === "suspended" && !resuming) return mark(name);
    if (g.phase === "ended") return;
    // Out of turn a click does nothing (a consultation side proposes only on its turn).
    if (g.phase === "playing" && !myTurn()) return;
    if (confirmMoves && g.phase === "playing" && tentative !== name) {
      tentative = name;
      render();
      return;
    }
    tentative = null;
    return play(name, at);
  }

  // When a chat line was said (the server's time of it), in the reader's own time zone: the
  // hour and minute, with the day too when it was not today; the full time on hover.
  function chatTime(ms) {
    if (typeof ms !== "number") return null;
    const d = new Date(ms);
    const locale = getLang() === "zh" ? "zh-Hant" : "en-GB";
    const hm = d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", hour12: false });
    const today = d.toDateString() === new Date().toDateString();
    return h("time", { class: "chat-time", datetime: d.toISOString(), title: d.toLocaleString(locale) },
      today ? hm : `${d.toLocaleDateString(locale, { month: "short", day: "numeric" })} ${hm}`);
  }

  function chatPanel(channel, title, canSend) {
    const list = h("ol", { class: "chat-list", id: `chat-${channel}` });
    chatLists[channel] = list;
    const input = h("input", { name: "text", maxlength: 1000, "aria-label": title, autocomplete: "off" });
    const f = canSend ? h("form", {}, input, h("button", { type: "submit" }, t("send"))) : null;
    if (f) f.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!input.value.trim() || !ws || ws.readyState !== 1) return;
      ws.send(JSON.stringify({ type: "chat", text: input.value, channel }));
      input.value = "";
    });
    return h("section", { class: "chat card" }, h("h3", {}, title), list, f);
  }

  // A side's chat (channel "black" or "white") is shown in the "side" panel, which only the
  // side's members have; the server sends it to nobody else.
  function addChat(m) {
    const key = m.channel === "black" || m.channel === "white" ? "side" : m.channel;
    const list = chatLists[key];
    if (!list) return;
    list.append(h("li", {}, chatTime(m.at_ms), " ", h("b", {}, `${m.from}: `), m.text));
    list.scrollTop = list.scrollHeight;
  }

  function loadChat(history) {
    for (const list of Object.values(chatLists)) list.replaceChildren();
    for (const m of history) addChat(m);
  }

  // Pair go and consultation: each side's members, and in pair go whose turn it is.
  const teamBox = h("p", { id: "team", class: "team" });
  function renderTeam() {
    if (!g || !g.team) { teamBox.hidden = true; return; }
    teamBox.hidden = false;
    const side = (c) => (c === "B" ? g.team.black : g.team.white).map((p) => p.name).join(" & ");
    const bits = [`${t(`kind_${g.team.kind}`)} · ${t("black")}: ${side("B")} · ${t("white")}: ${side("W")}`];
    const tm = g.team.to_move;
    if (tm && g.phase !== "ended") bits.push(session.me && tm.id === session.me.id ? t("your_turn") : `${tm.name} ${t("to_move")}`);
    teamBox.textContent = bits.join(" · ");
  }

  // Consultation agreeing by proposals: the side's proposals, which only its members receive,
  // each with the members who propose it and an Agree button; a move on the board proposes.
  let proposals = null;
  const proposalsBox = h("section", { id: "proposals", class: "card proposals", hidden: true, "aria-live": "polite" });
  function setProposals(p) { proposals = p; renderProposals(); }
  function renderProposals() {
    const p = proposals;
    const hide = () => { proposalsBox.hidden = true; if (board && board.setProposed) board.setProposed([]); };
    // Proposals are for one move number: a move played makes them lapse.
    if (!p || !g || !myColor || g.phase === "ended" || p.number !== g.move_count + 1) return hide();
    // Off the side's turn only a proposal to resign can be made: nothing to show without one.
    if (!p.proposals.length && !(g.phase === "suspended" || g.to_move === p.color)) return hide();
    proposalsBox.hidden = false;
    // The proposed points on the board, each with its votes.
    if (board && board.setProposed) board.setProposed(p.proposals.map((x) => ({ move: x.move, votes: x.by.length })), p.color);
    const me = session.me && session.me.name;
    const act = async (path, body) => {
      try {
        const r = await api("POST", `/api/games/${gid}/proposals/${path}`, body);
        if (r && r.proposed) setProposals(r.proposals);
        else if (r && r.proposals) setProposals(r);
        notice.textContent = "";
        await fetchState();
      } catch (x) { notice.textContent = reasonText(x); }
    };
    const items = p.proposals.map((x) => h("li", { "data-move": x.move },
      h("b", {}, x.move === "resign" ? t("propose_resign") : x.move === "pass" ? t("pass") : x.move),
      ` · ${x.by.join(", ")} (${x.by.length}/${p.needed} ${t("votes")}) `,
      x.by.includes(me) ? null : h("button", { class: "agree", "aria-label": `${t("agree")}: ${x.move}`,
        onclick: () => act("accept", { move: x.move, number: p.number }) }, t("agree"))));
    const mine = p.proposals.some((x) => x.by.includes(me));
    proposalsBox.replaceChildren(...[
      h("h3", {}, `${t("proposals")} · ${t(`agreement_${p.agreement}`)}`),
      items.length ? h("ol", { class: "proposal-list" }, items) : h("p", {}, t("no_proposals")),
      mine ? h("button", { id: "withdraw", onclick: () => act("withdraw", {}) }, t("withdraw")) : null].filter(Boolean));
  }

  function setupChats() {
    chats.replaceChildren();
    if (myColor) {
      chats.append(chatPanel("players", t("players_chat"), true));
      if (g.team) chats.append(chatPanel("side", t("side_chat"), true));
    } else {
      chats.append(chatPanel("players", t("players_chat"), false));
      chats.append(chatPanel("spectators", t("spectators_chat"), !!session.me));
    }
  }

  /** Whether I may move now: my side's turn and, in pair go, my seat's. */
  function myTurn() {
    return g.phase === "playing" && mySeatToMove();
  }

  /** Whether the side to move is mine and, in pair go, the seat to move is mine. */
  function mySeatToMove() {
    if (!myColor || g.to_move !== myColor) return false;
    const member = g.team && g.team.to_move;
    return !member || !session.me || member.id === session.me.id;
  }

  /** Whether I may resume play after a suspension: the player to move resumes. */
  function mayResume() {
    return g.phase === "suspended" && mySeatToMove();
  }

  /** The players of a side (every member in pair go and consultation), each a link. */
  function names(members) {
    return members.flatMap((p, i) => [
      ...(i ? [" & "] : []),
      h("a", { href: `#/user/${encodeURIComponent(p.name)}`, class: "pname" }, `${p.name} (${p.rank})`),
    ]);
  }

  function playerInfo(c) {
    const p = c === "B" ? g.black : g.white;
    const cap = c === "B" ? g.captures.black : g.captures.white;
    info[c].replaceChildren(
      h("span", { class: `dot ${c === "B" ? "black" : "white"}` }),
      ...names(c === "B" ? (g.team ? g.team.black : [p]) : (g.team ? g.team.white : [p])),
      h("span", { class: "caps" }, ` · ${t("captures")} ${cap}`),
      h("div", { id: `clock-${c}` }));
    info[c].classList.toggle("to-move", g.phase === "playing" && g.to_move === c);
    clockText[c] = null;
    drawClock(c);
  }

  // The clocks run here, from the state's clocks and the time since it came (the server sends
  // nothing between moves): redrawn when what they show changes, with a warning (colour, and a
  // sound when the player switched it on) as the end of the basic time, of a period or of a
  // penalty step comes near, once per stage and move.
  const clockText = { B: null, W: null };
  const warnedKeys = new Set();
  function drawClock(c) {
    const el = document.getElementById(`clock-${c}`);
    const clock = g && g.clocks && (c === "B" ? g.clocks.black : g.clocks.white);
    if (!el || !clock) return;
    const live = clock.running && g.phase === "playing";
    const x = live ? performance.now() - received : 0;
    const view = clockView({ ...clock, running: live }, x);
    const key = `${view.className}|${view.textContent}`;
    if (key !== clockText[c]) {
      clockText[c] = key;
      el.replaceChildren(view);
    }
    if (live && view.classList.contains("warn")) {
      const k = `${c}:${g.move_count}:${view.dataset.stage}`;
      if (!warnedKeys.has(k)) {
        warnedKeys.add(k);
        perf.warned.push(view.dataset.stage);
        if (myColor === c && soundOn()) { beep(true); perf.beeps++; }
        // Looking elsewhere: told by the title (and a notification when allowed).
        if (myColor === c && away()) tell("clock", tf("alert_clock", { black: g.black.name, white: g.white.name }), `#/game/${gid}`, `clock:${gid}:${g.move_count}:${view.dataset.stage}`);
      }
    }
  }
  function drawClocks() { if (g) { drawClock("B"); drawClock("W"); } }

  function render() {
    if (!g) return;
    if (!board || board.size !== g.size) {
      boardBox.replaceChildren();
      board = new BoardView(boardBox, g.size, {
        onPlay,
        preview: () => (myColor && (myTurn() || resuming) ? myColor : null),
        label: `${g.black.name} – ${g.white.name}`,
      });
    }
    const last = g.moves[g.moves.length - 1];
    // An estimate holds for the position it judged only.
    if (estimate && (estimate.move_count !== g.move_count || g.phase !== "playing" || !g.estimate_allowed)) estimate = null;
    // While play is suspended the server's owners of the points for the marked dead stones
    // are shaded; during play, an estimate's.
    const owners = g.phase === "suspended" ? g.dead_stones.owners : estimate ? estimate.owners : null;
    board.draw(g.board, {
      last: last && last.move !== "pass" ? last.move.toUpperCase() : null,
      numbers: moveNumbers(g.moves),
      showNumbers,
      marks: { dead: g.phase !== "playing" ? dead() : estimate ? new Set(estimate.dead) : new Set(), owners, illegal, tentative: tentative && myTurn() ? { point: tentative, color: myColor } : null, checks: g.phase === "suspended" ? g.dead_stones.checks || [] : [] },
    });
    estimateBtn.hidden = !(g.phase === "playing" && g.estimate_allowed !== false);
    estimateBtn.textContent = t(estimate ? "estimate_hide" : "estimate");
    estimateText.hidden = !estimate;
    if (estimate) {
      const sc = estimate.score;
      estimateText.textContent = tf("estimate_text", { n: estimate.move_count, result: sc.result, b: sc.area.black, w: sc.area.white });
    }
    playerInfo("B");
    playerInfo("W");
    const member = g.team && g.team.to_move; // pair go: the member whose turn it is
    const bits = [tf("move_n", { n: g.move_count })];
    if (g.phase === "playing") {
      bits.push(myTurn() ? t("your_turn")
        : member && g.to_move === myColor ? `${member.name} ${t("to_move")} (${t("partner_turn")})`
        : `${colorName(g.to_move)} ${t("to_move")}`);
    }
    if (last && last.move === "pass") {
      // White's first passes in a handicap game are its handicap passes (讓手), counted.
      const k = g.moves.filter((m) => m.color === "W" && m.number <= last.number).length;
      bits.push(last.color === "W" && k <= g.handicap_passes && g.moves.slice(0, last.number).filter((m) => m.color === "W").every((m) => m.move === "pass")
        ? `${colorName("W")}: ${tf("handicap_pass", { k, n: g.handicap_passes })}`
        : `${colorName(last.color)}: ${t("pass")}`);
    }
    if (!myColor) bits.push(t("spectators"));
    status.textContent = bits.join(" · ");
    about.textContent = aboutGame(g);
    status.dataset.moves = String(g.move_count);
    // Spectators, and anyone once the game is over, have nothing to press or play.
    const playing = !!myColor && g.phase !== "ended";
    passBtn.hidden = resignBtn.hidden = hint.hidden = !playing;
    confirmLabel.hidden = !playing;
    if (tentative && !myTurn()) tentative = null;
    confirmBtn.hidden = cancelBtn.hidden = !tentative;
    if (tentative) confirmBtn.textContent = tf("play_here", { point: tentative });
    passBtn.disabled = !myTurn();
    resignBtn.disabled = !playing;
    controls.hidden = false;
    renderUndo(last);
    panel.replaceChildren();
    if (g.phase === "suspended") {
      const d = g.dead_stones;
      const acc = [d.accepted.black ? t("black") : null, d.accepted.white ? t("white") : null].filter(Boolean);
      panel.append(h("div", { class: "card dead-step", id: "dead-step" },
        h("p", {}, t("suspended")),
        h("p", { id: "proposal" }, d.proposal.length
          ? `${acc.length ? t("proposal") : t("server_dead")}: ${d.proposal.join(" ")}`
          : acc.length ? `${t("proposal")}: —` : t("server_proposal")),
        acc.length ? h("p", {}, `${t("accepted_by")} ${acc.join(", ")}`) : null,
        // The count these dead stones give, as the server counts it.
        d.count ? h("p", { id: "running-count", class: "running-count", "data-result": d.count.result },
          tf("running_count", { result: d.count.result, b: d.count.area.black, w: d.count.area.white, s: d.count.shared })) : null,
        // The judgement's doubtful verdicts, ringed on the board: what to look at before accepting.
        d.checks && d.checks.length ? h("p", { id: "dead-checks", class: "dead-checks" },
          tf("checks", { list: d.checks.map((c) => `${c.point} ${c.note}`).join(", ") }), h("br"), h("small", {}, t("checks_key"))) : null,
        // Those the winner turns on: what to look at first.
        d.checks && d.checks.some((c) => c.turns_winner) ? h("p", { id: "dead-turns", class: "dead-checks turns" },
          tf("checks_turns", { list: d.checks.filter((c) => c.turns_winner).map((c) => c.point).join(", ") })) : null,
        myColor ? h("div", { class: "controls" },
          h("button", { id: "accept-dead", disabled: myColor === "B" ? d.accepted.black : d.accepted.white, onclick: async () => {
            try { g = await api("POST", `/api/games/${gid}/dead/accept`, { dead: d.proposal }); received = performance.now(); render(); } catch (x) { notice.textContent = reasonText(x); }
          } }, t("accept_dead")),
          // Play resumes with the player to move (the server refuses anyone else).
          mayResume() ? h("button", { id: "resume", onclick: () => { resuming = true; notice.textContent = t("resume_hint"); render(); } }, t("resume")) : null) : null));
    }
    if (g.phase === "ended" && g.result) {
      const r = g.result;
      panel.append(h("div", { class: "card", id: "result" },
        h("p", {}, h("b", {}, `${t("game_over")}: ${r.result || ""}`), " ", t(`reason_${r.reason}`)),
        h("p", {}, h("a", { href: `#/review/${gid}` }, t("review")),
          // A rematch: the same board, rules and clock, the colours swapped.
          myColor && !g.team ? [" ", h("button", { id: "rematch", onclick: async () => {
            const opp = myColor === "B" ? g.white.name : g.black.name;
            try {
              const c = await api("POST", "/api/challenges", { size: g.size, rules: g.rules, handicap: myColor === "B" ? "white" : "black", opponent: opp, time_control: g.clocks.time_control });
              // The lobby follows it into its game.
              const mine = new Set(JSON.parse(sessionStorage.getItem("ingo-challenges") || "[]"));
              mine.add(c.id);
              sessionStorage.setItem("ingo-challenges", JSON.stringify([...mine]));
              location.hash = "#/";
            } catch (x) { notice.textContent = reasonText(x); }
          } }, t("rematch"))] : null)));
    }
    const cv = g.phase === "ended" ? countView(g) : null;
    if (cv && !countBox.firstChild) countBox.replaceChildren(cv);
    if (!cv) countBox.replaceChildren();
  }

  /** An undo request's step: ask (after my own move), or grant or decline the opponent's. */
  function renderUndo(last) {
    const u = g.undo_request;
    const send = (path) => async () => {
      try { setState(await api("POST", `/api/games/${gid}/${path}`, {})); notice.textContent = ""; } catch (x) { notice.textContent = reasonText(x); }
    };
    const items = [];
    if (u && g.phase === "playing") {
      const text = u.by === myColor ? tf("undo_asked", { n: u.number }) : tf("undo_asks", { color: colorName(u.by), n: u.number });
      items.push(h("p", { id: "undo-request", "data-number": String(u.number) }, text));
      if (myColor && u.by !== myColor) {
        items.push(h("div", { class: "controls" },
          h("button", { id: "undo-accept", class: "primary", onclick: send("undo/accept") }, t("undo_grant")),
          h("button", { id: "undo-decline", onclick: send("undo/decline") }, t("undo_decline"))));
      }
    } else if (!u && g.undo_allowed !== false && myColor && g.phase === "playing" && last && last.color === myColor) {
      items.push(h("button", { id: "undo", onclick: send("undo") }, t("undo")));
    }
    undoBox.replaceChildren(...items);
  }

  /** The state `state`, taken by the server when it came (`at`, performance.now() time). */
  function setState(state, at) {
    const first = !g;
    const same = g && sameState(g, state);
    g = state;
    received = at ?? performance.now();
    if (same) { playerInfo("B"); playerInfo("W"); return; } // only the clocks are new
    myColor = session.me ? (g.black.id === session.me.id ? "B" : g.white.id === session.me.id ? "W" : null) : null;
    if (session.me && g.team) myColor = g.team.black.some((p) => p.id === session.me.id) ? "B" : g.team.white.some((p) => p.id === session.me.id) ? "W" : null;
    if (first) { setupChats(); chats.before(teamBox); teamBox.after(proposalsBox); }
    if (state.proposals) proposals = state.proposals;
    renderTeam();
    renderProposals();
    render();
    drawn(g.move_count);
    if (first && perf.boardDrawn === null) {
      perf.boardDrawn = performance.now();
      afterPaint(() => { perf.boardReady = performance.now(); });
    }
  }

  /** Whether `b` shows what `a` shows, but for the clocks (the socket's state on opening). */
  function sameState(a, b) {
    const key = (x) => JSON.stringify([x.id, x.move_count, x.phase, x.board, x.dead_stones, x.result, x.undo_request]);
    return key(a) === key(b);
  }

  function drawn(n) {
    if (perf.drawn[n]) return;
    perf.drawn[n] = now();
    afterPaint(() => { perf.rendered[n] = perf.rendered[n] || now(); });
  }

  // A move as the WebSocket announces it (number, color, move, to_move, phase, clocks), or as
  // the answer to my own move tells it: put on the board shown, without asking the server for
  // the whole state; anything unexpected (a gap, an occupied point) asks for it instead.
  function applyMove(m) {
    if (!g) return;
    if (m.number <= g.move_count) {
      if (m.number === g.move_count && m.clocks) {
        g.clocks = m.clocks;
        received = performance.now();
        playerInfo("B");
        playerInfo("W");
      }
      // My own move, already shown from its acknowledgement: the event still names the
      // partner whose turn it is in pair go.
      if (m.number === g.move_count) teamTurn(m);
      return;
    }
    // The server says what the move removed and how many stones each side has captured; the
    // page only draws it.
    const next = m.number === g.move_count + 1 && g.phase === "playing" && m.move
      && Array.isArray(m.removed) && m.captures
      ? placeMove(g.board, g.size, m.move, m.color, m.removed) : null;
    if (!next) { fetchState(); return; }
    g.board = next;
    g.captures = m.captures;
    g.moves = [...g.moves, { number: m.number, color: m.color, move: m.move, at_ms: m.at_ms }];
    g.move_count = m.number;
    g.undo_request = null; // a request lapses with the next move
    g.to_move = m.to_move || (m.color === "B" ? "W" : "B");
    if (m.phase) g.phase = m.phase;
    if (m.clocks) { g.clocks = m.clocks; received = performance.now(); }
    teamTurn(m);
    render();
    drawn(g.move_count);
    if (m.move !== "pass" && pref("ingo-stone-sound")) stoneClick();
    // The opponent moved while the player looks elsewhere: their turn is told.
    if (m.color !== myColor && away()) watchGame(g);
  }

  /** A team game's move event names the member whose turn it is now. */
  function teamTurn(m) {
    if (g.team && "team_to_move" in m) {
      g.team = { ...g.team, to_move: m.team_to_move };
      renderTeam();
    }
  }

  async function fetchState() {
    try { setState(await api("GET", `/api/games/${gid}`)); } catch (x) {
      if (x.status === 404) missing(); else notice.textContent = x.message;
    }
  }

  /** There is no such game: said so, with nothing to play on and no socket to retry. */
  function missing() {
    closed = true;
    clearTimeout(retry);
    perf.retrying = false;
    if (ws) ws.close();
    boardBox.replaceChildren();
    controls.hidden = true;
    notice.dataset.reason = "not-found";
    notice.textContent = tf("no_such_game", { id: gid });
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = session.me ? `?csrf=${encodeURIComponent(session.me.csrf)}` : "";
    perf.sockets++;
    perf.retrying = false;
    ws = new WebSocket(`${proto}://${location.host}/api/games/${gid}/ws${q}`);
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.type === "state") { setState(m.game); if (m.chat) loadChat(m.chat); }
      else if (m.type === "move") applyMove(m);
      else if (m.type === "ack" && pending.delete(m.number)) accepted(m);
      else if (m.type === "proposed" && pending.delete(m.number)) proposed(m);
      else if (m.type === "error" && pending.has(m.number)) {
        refused(m, pending.get(m.number));
        pending.delete(m.number);
      } else if (m.type === "chat") {
        addChat(m);
      } else if (m.type === "proposals") {
        setProposals(m.proposals);
      } else if (m.type === "error") notice.textContent = reasonText(m);
    };
    ws.onclose = () => {
      pending.clear(); // unanswered: the state sent on reconnection tells what became of them
      if (closed) return;
      // Never opened with a state: ask why (an unknown game is not retried).
      if (!g) fetchState();
      perf.retrying = true;
      retry = setTimeout(() => { if (!closed) connect(); }, 1000);
    };
  }

  // Opened directly: the state asked for at once is drawn first, and the socket (which sends
  // the whole state again when it opens, so nothing is missed) is opened after that paint.
  if (early && early.id === gid) {
    const asked = early.state;
    early = null;
    asked.then(async (st) => {
      if (st && !g && !closed) setState(st, st.__at);
      else if (!st) await fetchState(); // refused: an unknown game says so, and stops there
      afterPaint(() => { if (!closed) connect(); });
    });
  } else connect();
  const tick = setInterval(() => { if (g && g.phase === "playing") drawClocks(); }, 100);
  return () => {
    closed = true;
    clearInterval(tick);
    clearTimeout(retry);
    if (ws) ws.close();
  };
}

// ---------------------------------------------------------------- a player's games

async function userPage(name) {
  const box = h("section", { class: "card" });
  main.append(box);
  try {
    const u = await api("GET", `/api/users/${encodeURIComponent(name)}`);
    box.append(h("h2", {}, `${u.name} (${u.rank})`), h("h3", {}, t("finished_games")), finishedList(u.games, "finished"));
  } catch (x) { box.append(h("p", { class: "error" }, x.message)); }
}

/** A player's finished games (a profile's `games`): colour, the opponent (each a link to their
 * games), size, result, when, and the review. */
function finishedList(games, id) {
  const opponents = (text) => (text || "?").split(" & ").flatMap((n, i) => [i ? " & " : null,
    n === "?" ? n : h("a", { href: `#/user/${encodeURIComponent(n)}`, class: "opponent" }, n)]);
  return h("ul", { class: "list", id }, games.length ? games.map((x) => h("li", { "data-game": x.id },
    `${colorName(x.color)} · `, ...opponents(x.opponent),
    ` · ${x.size}×${x.size} · ${x.result || ""} · ${x.ended_ms ? new Date(x.ended_ms).toLocaleString() : ""} `,
    h("a", { href: `#/review/${x.id}` }, t("review")))) : h("li", {}, t("none")));
}

// ---------------------------------------------------------------- stepping through a game

/** A stepper over `positions` ({size, moves, boards}): board, slider, buttons, arrow keys. */
function stepper(container, pos, { start = pos.boards.length - 1, marks = () => ({}) } = {}) {
  let i = start;
  const boardBox = h("div", { class: "board-box" });
  const board = new BoardView(boardBox, pos.size, {});
  const label = h("span", { id: "step-label", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, max: pos.boards.length - 1, value: i, "aria-label": t("move"), oninput: (e) => go(Number(e.target.value)) });
  const btn = (k, f) => h("button", { onclick: f }, t(k));
  let numbers = false;
  function go(n) {
    i = Math.max(0, Math.min(pos.boards.length - 1, n));
    slider.value = i;
    const shown = pos.moves.slice(0, i);
    const last = shown[shown.length - 1];
    board.draw(pos.boards[i], { last: last && last.move !== "pass" ? last.move.toUpperCase() : null, numbers: moveNumbers(shown), showNumbers: numbers, marks: marks(i) });
    label.textContent = `${t("move")} ${i} ${t("of")} ${pos.boards.length - 1}${last ? ` · ${colorName(last.color)} ${last.move}` : ""}`;
  }
  container.append(boardBox, h("div", { class: "controls" },
    btn("first", () => go(0)), btn("prev", () => go(i - 1)), slider, btn("next", () => go(i + 1)), btn("last", () => go(pos.boards.length - 1)),
    h("label", {}, h("input", { type: "checkbox", onchange: (e) => { numbers = e.target.checked; go(i); } }), t("numbers"))), label);
  const keys = (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowLeft") go(i - 1);
    else if (e.key === "ArrowRight") go(i + 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(pos.boards.length - 1);
  };
  document.addEventListener("keydown", keys);
  go(i);
  return { go, remove: () => document.removeEventListener("keydown", keys) };
}

/**
 * The review page: the game's line stepped through, and variations played on the board from
 * any of its moves. The server plays each variation under the game's rules (POST
 * …/variation) and answers the positions or the rule that refuses a move; the page draws what
 * it answers. The variations played are kept for the SGF download (…/variations.sgf).
 */
async function reviewPage(id) {
  const box = h("section", { class: "review" });
  main.append(box);
  let pos, g;
  try {
    [pos, g] = await Promise.all([api("GET", `/api/games/${id}/positions`), api("GET", `/api/games/${id}`)]);
  } catch (x) { box.append(h("p", { class: "error" }, x.message)); return null; }
  const last = pos.boards.length - 1;
  let i = last; // the position shown on the game's line
  let v = null; // the variation shown: {from, moves, boards, k (moves shown), to_move}
  let illegal = null; // the point of the move last refused
  let keptAt = -1; // which kept variation `v` is
  const kept = []; // every variation played: {from, moves}
  Object.assign(perf, { variationsSgf: null });
  const boardBox = h("div", { class: "board-box" });
  const board = new BoardView(boardBox, pos.size, { onPlay: (name) => playVariation(name), label: `${g.black.name} – ${g.white.name}` });
  const label = h("span", { id: "step-label", "aria-live": "polite" });
  const notice = h("p", { class: "error", id: "review-notice", role: "alert", "aria-live": "assertive" });
  const slider = h("input", { type: "range", min: 0, max: last, value: i, "aria-label": t("move"), oninput: (e) => { v = null; go(Number(e.target.value)); } });
  const btn = (k, f, attrs = {}) => h("button", { onclick: f, ...attrs }, t(k));
  let numbers = false;
  const varBox = h("div", { class: "variation card", id: "variation", hidden: true });
  const backBtn = btn("back_to_game", () => { if (v) { const n = v.from; v = null; go(n); } }, { id: "back-to-game" });
  const sgfBtn = btn("variation_sgf", downloadSgf, { id: "variations-sgf", disabled: true });

  /** Steps by `d` moves: within the variation shown, else along the game's line. */
  function step(d) {
    if (v) { v.k = Math.max(0, Math.min(v.moves.length, v.k + d)); draw(); } else go(i + d);
  }
  function go(n) { i = Math.max(0, Math.min(last, n)); illegal = null; draw(); }

  function draw() {
    slider.value = v ? v.from : i;
    const base = v ? v.from : i;
    const line = pos.moves.slice(0, base);
    const extra = v ? v.moves.slice(0, v.k) : [];
    const shown = [...line, ...extra];
    const rows = v && v.k > 0 ? v.boards[v.k - 1] : pos.boards[base];
    const lm = shown[shown.length - 1];
    board.draw(rows, { last: lm && lm.move !== "pass" ? lm.move.toUpperCase() : null, numbers: moveNumbers(shown), showNumbers: numbers, marks: { illegal } });
    label.textContent = v
      ? `${tf("variation_from", { n: v.from })} · ${t("move")} ${v.from + v.k}${lm && v.k ? ` · ${colorName(lm.color)} ${lm.move}` : ""}`
      : `${t("move")} ${i} ${t("of")} ${last}${lm ? ` · ${colorName(lm.color)} ${lm.move}` : ""}`;
    label.dataset.variation = v ? String(v.k) : "";
    varBox.hidden = !v;
    if (v) {
      varBox.replaceChildren(
        h("h3", {}, tf("variation_from", { n: v.from })),
        h("p", { class: "moves", id: "variation-moves" }, v.moves.map((m, x) => `${m.number}. ${colorName(m.color)} ${m.move}${x + 1 === v.k ? " ◀" : ""}`).join(" · ")),
        h("div", { class: "controls" }, backBtn));
    }
    sgfBtn.disabled = !kept.length;
    sgfBtn.title = tf("variations_n", { n: kept.length });
  }

  async function playVariation(name) {
    const from = v ? v.from : i;
    const prior = v ? v.moves.slice(0, v.k).map((m) => m.move) : [];
    let r;
    try { r = await api("POST", `/api/games/${id}/variation`, { from, moves: [...prior, name] }); } catch (x) {
      notice.textContent = reasonText(x);
      notice.dataset.reason = x.reason || "";
      return;
    }
    if (r.illegal) {
      // Refused by the rules: the variation stays as it was, the reason is said.
      notice.textContent = `${tf("variation_refused", { color: colorName(r.illegal.color), move: r.illegal.move })} — ${reasonText(r.illegal)}`;
      notice.dataset.reason = r.illegal.reason;
      illegal = r.illegal.move.toUpperCase();
      draw();
      return;
    }
    notice.textContent = "";
    notice.dataset.reason = "";
    illegal = null;
    // A move after the end of the variation shown extends it; one from inside it (or from the
    // game's line) starts another.
    const extends_ = v && v.k === v.moves.length && keptAt >= 0;
    v = { from, moves: r.moves, boards: r.boards, k: r.moves.length, to_move: r.to_move };
    const entry = { from, moves: r.moves.map((m) => m.move) };
    if (extends_) kept[keptAt] = entry; else { kept.push(entry); keptAt = kept.length - 1; }
    draw();
  }

  async function downloadSgf() {
    try {
      const r = await fetch(`/api/games/${id}/variations.sgf`, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ variations: kept }) });
      const text = await r.text();
      if (!r.ok) { notice.textContent = text; return; }
      perf.variationsSgf = text;
      const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-go-sgf" })), download: `ingo-${id}-variations.sgf` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (x) { notice.textContent = x.message; }
  }

  box.append(h("h2", {}, `${t("review")}: ${g.black.name} – ${g.white.name} · ${g.result ? g.result.result : ""}`),
    h("p", {}, h("a", { href: `/api/games/${id}/sgf`, download: `ingo-${id}.sgf` }, t("download")), " ", sgfBtn),
    h("div", { class: "game" },
      h("div", { class: "board-col" }, boardBox,
        h("div", { class: "controls" },
          btn("first", () => { v = null; go(0); }), btn("prev", () => step(-1)), slider, btn("next", () => step(1)), btn("last", () => { v = null; go(last); }),
          h("label", {}, h("input", { type: "checkbox", onchange: (e) => { numbers = e.target.checked; draw(); } }), t("numbers")))),
      // What the variation needs stays beside the board.
      h("div", { class: "side-col" }, h("p", {}, label), notice, varBox, h("p", { class: "hint" }, t("variation_hint")))));
  const keys = (e) => {
    // (Arrows on the focused board move its cursor, which takes the key.)
    if (e.defaultPrevented || e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Home") { v = null; go(0); } else if (e.key === "End") { v = null; go(last); } else if (e.key === "Escape" && v) backBtn.click();
  };
  document.addEventListener("keydown", keys);
  draw();
  const cv = countView(g);
  if (cv) main.append(cv);
  return () => document.removeEventListener("keydown", keys);
}

// ---------------------------------------------------------------- judging an uploaded SGF

function judgePage() {
  const out = h("div", { id: "judge-out", class: "two" });
  const err = errorBox();
  const file = h("input", { type: "file", accept: ".sgf,application/x-go-sgf,text/plain", id: "sgf-file" });
  const text = h("textarea", { id: "sgf-text", rows: 6, placeholder: "(;GM[1]SZ[19]RU[GOE]…)" });
  file.addEventListener("change", async () => { if (file.files[0]) text.value = await file.files[0].text(); });
  let stop = null;
  const form = h("form", { class: "card" }, h("h2", {}, t("judge")), h("p", {}, t("judge_intro")), file, text,
    h("button", { type: "submit", id: "judge-run" }, t("judge_run")), err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    out.replaceChildren();
    if (stop) stop();
    try {
      const r = await api("POST", "/api/judge", { sgf: text.value });
      const pos = { size: r.size, moves: r.moves, boards: r.boards };
      const left = h("div"), right = h("div");
      out.append(left, right);
      if (r.illegal) {
        const il = r.illegal;
        right.append(h("p", { class: "error", id: "judge-illegal" },
          `${t("illegal_at")} ${il.number}: ${colorName(il.color)} ${il.move} — `, reasonText(il)));
        stop = stepper(left, pos, { start: pos.boards.length - 1, marks: (i) => (i === pos.boards.length - 1 ? { illegal: il.move.toUpperCase() } : {}) }).remove;
      } else {
        right.append(h("p", { id: "judge-legal" }, t("all_legal")));
        stop = stepper(left, pos).remove;
      }
      if (r.score) {
        const s = r.score;
        // A game not over is counted as if play stopped there, and the page says so.
        const lead = r.phase === "playing" ? tf("play_goes_on", { color: colorName(r.to_move), n: r.moves.length })
          : r.phase === "suspended" ? t("suspended_judge") : t("count");
        right.append(h("p", { id: "judge-score", "data-phase": r.phase || "" }, `${lead}: ${s.result} (${t("margin")} ${Math.abs(s.margin)})`));
      }
      if (r.count_svg) right.append(h("img", { class: "count-svg", alt: t("count"), src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(r.count_svg)}` }));
    } catch (x) { err.textContent = x.message; }
  });
  main.append(form, out);
  return () => stop && stop();
}

// ---------------------------------------------------------------- start

document.getElementById("lang").addEventListener("change", (e) => { setLang(e.target.value); route(); });
window.addEventListener("hashchange", route);
(async () => {
  if (boot.me) session.me = await boot.me;
  else try { session.me = await api("GET", "/api/me"); } catch { session.me = null; }
  perf.me = performance.now();
  route();
})();
