// Ing events on the web board: the lobby's list, an event's page (the agreement in the rule
// text's terms, entrants, rounds, standings, crosstable, exports, registration and check-in),
// the director's page, a new event from its agreement, and the demonstration boards (傳譜) of
// a round. The server decides everything; these pages show what it says and send what the
// user pressed. app.js hands them `#/event…` and `#/events…` with its helpers (`ctx`).

import { getLang, tf as appTf, reasonText } from "./i18n.js";
import { BoardView, placeMove } from "./board.js";
import { describeControl, parseControl } from "./clock.js";

// This module's style, beside it under the same version (app.js imports the module when a page
// first needs it, so the other pages load neither).
document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL("./events.css", import.meta.url).href }));

// ---------------------------------------------------------------- words

const en = {
  events: "Events", new_event: "New event", no_events: "No events yet.",
  st_registration: "registration open", st_running: "in play", st_finished: "all rounds played", st_closed: "closed",
  agreement: "The agreement (賽約)", ag_name: "Name (比賽名稱)", ag_purpose: "Purpose (比賽宗旨)",
  ag_eligibility: "Eligibility (參加資格)", ag_format: "Format (賽制)", ag_rules: "Rules (採用規則)",
  ag_handicap: "Handicap (對局局差)", ag_time: "Time control (對局時限)", ag_penalty: "Penalties (處罰規則)",
  ag_size: "Board", ag_text: "The agreement as written (TOML)",
  rounds_n: "{n} rounds", komi_even: "even games: komi {komi} to White, a tie to Black",
  penalty_text: "a player absent more than {n} times is suspended (罰停): the games left are lost by forfeit",
  fmt_swiss: "Swiss", fmt_mcmahon: "McMahon", "fmt_round-robin": "round robin (循環制)",
  "fmt_double-round-robin": "double round robin (複式循環制)", fmt_knockout: "knockout (淘汰制)",
  "fmt_double-knockout": "double knockout (複式淘汰制)", fmt_leitai: "擂台制 (team challenge)", "fmt_ten-game": "十局升降制 (ten-game match)",
  rules_ing: "Ing's rules (應氏計點制)",
  entrants: "Entrants", seed: "No.", player: "Player", rank: "Rank", account: "Account", withdrawn: "withdrawn",
  suspended: "suspended (罰停)", rounds: "Rounds", round_n: "Round {n}", board: "Board", black: "Black", white: "White",
  passes: "Handicap passes (讓手)", komi: "Komi", result: "Result", game: "Game", bye: "bye (輪空)",
  started_at: "started {t}", not_started: "not started", absent_at: "a player not arrived by {t} is absent (缺席)",
  checked: "checked in", watch: "Watch", boards_link: "Demonstration boards (傳譜)",
  standings: "Standings", place: "Place", main: "Main (主分)", mcmahon: "McMahon", wins: "Won", losses: "Lost",
  forfeits: "Forfeits (裁定)", crosstable: "Crosstable", cross_svg: "As a picture (SVG)", cross_html: "By round (HTML)", bracket: "Bracket", exports: "Exports", csv: "Results (CSV)", egf: "EGF results (.h)",
  sgf: "Every game (SGF)", register_btn: "Register for this event", registered: "Registered: the director approves registrations.",
  you_entrant: "You are entrant {name}.", checkin_btn: "Check in for round {n}", checked_wait: "Checked in for round {n}: your game starts when the round starts.",
  your_game: "Go to your game (round {n})", direct: "Director's page", log_in_register: "Log in to register.",
  live_socket: "live", live_poll: "updated every few seconds",
  w_R: "resignation", w_T: "on time (逾時)", "w_F:absence": "absence (缺席)", "w_F:takeback": "taking back a move (悔著)",
  "w_F:defiance": "defiance (抗命)", "w_F:withdrawal": "withdrawal (棄權)", w_F: "forfeit (裁定敗)", w_void: "void",
  // the director
  director_only: "Only a director of this server may direct events.", registration: "Registration",
  open_reg: "Open registration", close_reg: "Close registration", pending: "Registrations waiting",
  approve: "Approve", set_rank: "Correct the rank", reason: "Reason", withdraw: "Withdraw", reinstate: "Reinstate",
  enter: "Enter an account (a program, or a player at the desk)", enter_btn: "Enter",
  pairing: "Pairing the next round", pair_auto: "Pair the next round", allow_rematches: "Allow rematches if none is possible without",
  pair_hand: "Pair by hand: one game a line, Black then White", bye_field: "Bye (optional)", pair_hand_btn: "Pair these games",
  start_round: "Start round {n}", not_checked: "Not checked in for round {n}", everyone_checked: "Everyone of round {n} has checked in.",
  decision: "A referee's decision", dec_result: "Result (B+R, W+F:takeback, B+F:defiance, void, B+3…)", change: "Change a result the game has",
  clear: "Clear the result", decide: "Record the decision", close_event: "Close the event", log: "The event's log",
  when: "When", action: "Action", round_col: "Round", old: "Before", new_v: "After", done: "Done.",
  create_intro: "Paste the agreement (the TOML file of `ingo tournament create`). The server checks it the same way and names the first bad field.",
  create_btn: "Create the event", event_page: "Event page",
  // demonstration boards
  demo: "Demonstration boards (傳譜): round {n}", projector: "Large screen", normal: "Normal layout",
  moves_n: "move {n}", in_play: "in play", waiting_start: "not started yet", back_event: "Back to the event",
};

const zh = {
  events: "比賽", new_event: "新增比賽", no_events: "尚無比賽。",
  st_registration: "報名中", st_running: "比賽中", st_finished: "各輪已賽完", st_closed: "已結束",
  agreement: "賽約", ag_name: "比賽名稱", ag_purpose: "比賽宗旨", ag_eligibility: "參加資格", ag_format: "賽制",
  ag_rules: "採用規則", ag_handicap: "對局局差", ag_time: "對局時限", ag_penalty: "處罰規則", ag_size: "枰道",
  ag_text: "賽約原文（TOML）",
  rounds_n: "共 {n} 輪", komi_even: "分先黑貼八點填平法：白得還點 {komi}，和棋黑勝",
  penalty_text: "缺席超過 {n} 次者罰停：停止其以後賽程，其未賽成績一律為裁定敗",
  fmt_swiss: "瑞士制", fmt_mcmahon: "麥克馬洪制", "fmt_round-robin": "循環制", "fmt_double-round-robin": "複式循環制",
  fmt_knockout: "淘汰制", "fmt_double-knockout": "複式淘汰制", fmt_leitai: "擂台制", "fmt_ten-game": "十局升降制",
  rules_ing: "應氏計點制規則",
  entrants: "參賽者", seed: "編號", player: "棋手", rank: "名位", account: "帳號", withdrawn: "退出",
  suspended: "罰停", rounds: "各輪", round_n: "第 {n} 輪", board: "台次", black: "黑", white: "白",
  passes: "讓手", komi: "還點", result: "結果", game: "對局", bye: "輪空",
  started_at: "{t} 開賽", not_started: "尚未開賽", absent_at: "{t} 前未到者為缺席",
  checked: "已報到", watch: "觀戰", boards_link: "傳譜",
  standings: "名次", place: "名次", main: "主分", mcmahon: "麥克馬洪分", wins: "勝", losses: "負",
  forfeits: "裁定", crosstable: "對陣表", cross_svg: "圖（SVG）", cross_html: "依輪次（HTML）", bracket: "淘汰表", exports: "匯出", csv: "成績（CSV）", egf: "EGF 成績（.h）",
  sgf: "全部棋譜（SGF）", register_btn: "報名參加此比賽", registered: "已報名：待裁判長核准。",
  you_entrant: "你是參賽者 {name}。", checkin_btn: "第 {n} 輪報到", checked_wait: "已於第 {n} 輪報到：開賽即開始對局。",
  your_game: "前往你的對局（第 {n} 輪）", direct: "裁判長頁面", log_in_register: "登入後即可報名。",
  live_socket: "即時", live_poll: "每數秒更新",
  w_R: "認輸", w_T: "逾時", "w_F:absence": "缺席", "w_F:takeback": "悔著", "w_F:defiance": "抗命",
  "w_F:withdrawal": "棄權", w_F: "裁定敗", w_void: "無效",
  director_only: "只有本伺服器的裁判長可主持比賽。", registration: "報名",
  open_reg: "開放報名", close_reg: "截止報名", pending: "待核准的報名",
  approve: "核准", set_rank: "更正名位", reason: "理由", withdraw: "退出", reinstate: "恢復",
  enter: "登錄帳號（程式，或現場報名的棋手）", enter_btn: "登錄",
  pairing: "下一輪對陣", pair_auto: "編排下一輪", allow_rematches: "無法避免時容許重複對局",
  pair_hand: "人工編排：每行一局，先黑後白", bye_field: "輪空（可留空）", pair_hand_btn: "採用此對陣",
  start_round: "第 {n} 輪開賽", not_checked: "第 {n} 輪尚未報到", everyone_checked: "第 {n} 輪全部已報到。",
  decision: "裁判判定", dec_result: "結果（B+R、W+F:takeback、B+F:defiance、void、B+3…）", change: "更正已有的結果",
  clear: "清除結果", decide: "記錄判定", close_event: "結束比賽", log: "比賽紀錄",
  when: "時間", action: "事項", round_col: "輪次", old: "原為", new_v: "改為", done: "完成。",
  create_intro: "貼上賽約（`ingo tournament create` 的 TOML 檔）。伺服器以同樣方式檢查，並指出第一個有誤的欄位。",
  create_btn: "建立比賽", event_page: "比賽頁面",
  demo: "傳譜：第 {n} 輪", projector: "大螢幕", normal: "一般版面",
  moves_n: "第 {n} 手", in_play: "對局中", waiting_start: "尚未開始", back_event: "回到比賽",
};

const tables = { en, zh };

/** The text of `key` in the page's language (English when the table lacks it). */
export function et(key) {
  const v = tables[getLang()]?.[key];
  return v === undefined ? en[key] ?? key : v;
}

/** `et(key)` with `{name}` replaced by `vars.name`. */
export function etf(key, vars) {
  return et(key).replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** A result in words: `B+F:absence` → "Black, absence (缺席)". */
function resultWords(r) {
  if (!r) return "";
  if (r === "void") return et("w_void");
  const m = /^([BW])\+(.*)$/.exec(r);
  if (!m) return r;
  const why = m[2];
  const known = en[`w_${why}`] !== undefined;
  const word = known ? et(`w_${why}`) : why.startsWith("F") ? et("w_F") : why;
  return `${m[1] === "B" ? et("black") : et("white")} + ${word}`;
}

const time = (ms) => (ms ? new Date(ms).toLocaleString() : "");

// Read by the browser tests (and anyone curious): how the event pages follow the event
// (`mode`: `socket` or `poll`), how many times they asked, and the demonstration boards' moves.
const probe = (window.__ingoEvents = { mode: null, loads: 0, boards: {} });

// ---------------------------------------------------------------- following an event

const POLL_MS = 3000;

/**
 * Calls `onChange` whenever event `id` may have changed: on each message of the event's
 * WebSocket (`GET /api/events/{id}/ws`), and every few seconds while no socket is open (before
 * the server has one, or after it closed; it is tried again now and then). Answers the stop.
 */
function follow(id, onChange) {
  let ws = null, poll = null, retry = null, closed = false;
  const startPoll = () => { if (!poll) poll = setInterval(onChange, POLL_MS); probe.mode = "poll"; };
  const stopPoll = () => { clearInterval(poll); poll = null; };
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    try { ws = new WebSocket(`${proto}://${location.host}/api/events/${id}/ws`); } catch { ws = null; return; }
    ws.onopen = () => { stopPoll(); probe.mode = "socket"; onChange(); };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m && m.type === "event" && String(m.event_id) === String(id)) onChange();
    };
    ws.onclose = () => {
      ws = null;
      if (closed) return;
      startPoll();
      retry = setTimeout(connect, 15000);
    };
  }
  startPoll();
  connect();
  return () => { closed = true; stopPoll(); clearTimeout(retry); if (ws) ws.close(); };
}

/** `f` run one at a time: a call while one runs runs once more after it. */
function serial(f) {
  let running = false, again = false;
  const run = async () => {
    if (running) { again = true; return; }
    running = true;
    try { await f(); } finally { running = false; }
    if (again) { again = false; run(); }
  };
  return run;
}

/** Redraws `box` with `draw()`, keeping what was typed in its `[data-keep]` fields and the focus. */
function keeping(box, draw) {
  const kept = new Map();
  for (const e of box.querySelectorAll("[data-keep]")) kept.set(e.dataset.keep, e.type === "checkbox" ? e.checked : e.value);
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.keep : null;
  draw();
  for (const e of box.querySelectorAll("[data-keep]")) {
    if (!kept.has(e.dataset.keep)) continue;
    if (e.type === "checkbox") e.checked = kept.get(e.dataset.keep); else e.value = kept.get(e.dataset.keep);
    if (focused && e.dataset.keep === focused) e.focus();
  }
}

// ---------------------------------------------------------------- the lobby's list

/** The events, for the lobby: each a link to its page; a director's link to a new one. */
export function lobbyEvents({ api, session, h }) {
  const list = h("ul", { id: "events", class: "list" });
  const box = h("section", { id: "events-section" }, h("h2", {}, et("events")), list);
  if (session.me && session.me.is_director) box.append(h("p", {}, h("a", { href: "#/events/new", class: "button", id: "new-event" }, et("new_event"))));
  let drawn = null;
  const load = () => api("GET", "/api/events").then((all) => {
    const key = JSON.stringify(all);
    if (key === drawn) return;
    drawn = key;
    list.replaceChildren(...(all.length ? all.map((e) => h("li", { "data-event": e.id },
      h("a", { href: `#/event/${e.id}` }, e.name),
      h("small", {}, `${et(`fmt_${e.format}`)} · ${et(`st_${e.status}`)}`))) : [h("li", {}, et("no_events"))]));
  }).catch(() => {});
  load();
  // Asked again now and then while the list is on the page (a new event, registration opened).
  const timer = setInterval(() => (box.isConnected ? load() : clearInterval(timer)), 5000);
  return box;
}

// ---------------------------------------------------------------- routing

/** The pages under `#/event/…` and `#/events/…`; answers the page's cleanup. */
export function route(ctx, kind, ...rest) {
  if (kind === "events") return rest[0] === "new" ? newEventPage(ctx) : eventList(ctx);
  const [id, sub, n, what] = rest;
  if (!/^\d+$/.test(id || "")) return eventList(ctx);
  if (sub === "direct") return directorPage(ctx, id);
  if (sub === "round" && /^\d+$/.test(n || "") && what === "boards") return boardsPage(ctx, id, Number(n));
  return eventPage(ctx, id);
}

function eventList(ctx) {
  ctx.main.append(ctx.h("div", { class: "card" }, lobbyEvents(ctx)));
}

/** The agreement's own line `key = "…"` (top level), if any. */
function tomlLine(text, key) {
  const m = new RegExp(`^${key}\\s*=\\s*"((?:[^"\\\\]|\\\\.)*)"`, "m").exec(text || "");
  return m ? m[1] : null;
}

/** Whether the logged-in player is an entrant of `ev`, and as whom. */
function myEntrant(ev, session) {
  if (!session.me) return null;
  return ev.entrants.find((e) => e.account === session.me.name) || null;
}

/** The agreement in the rule text's terms (第五條 賽約). */
function agreementCard(h, ev) {
  const a = ev.agreement;
  const row = (k, v) => (v ? [h("dt", {}, et(k)), h("dd", {}, v)] : []);
  const k = parseControl(a.time_control);
  const tc = k ? `${describeControl(k, appTf)} (${a.time_control})` : a.time_control;
  const format = `${et(`fmt_${a.format}`)}${a.rounds ? ` · ${etf("rounds_n", { n: a.rounds })}` : ""}`;
  const rules = a.rules === "ing" ? et("rules_ing") : a.rules;
  return h("section", { class: "card", id: "agreement" }, h("h2", {}, et("agreement")),
    h("dl", { class: "agreement" },
      row("ag_name", ev.name), row("ag_purpose", tomlLine(a.text, "purpose")), row("ag_eligibility", tomlLine(a.text, "eligibility")),
      row("ag_format", format), row("ag_rules", rules), row("ag_size", `${a.size}×${a.size}`),
      row("ag_handicap", etf("komi_even", { komi: a.komi })), row("ag_time", tc),
      row("ag_penalty", etf("penalty_text", { n: a.allowed_absences }))),
    h("details", {}, h("summary", {}, et("ag_text")), h("pre", { class: "toml" }, a.text)));
}

function entrantsCard(h, ev) {
  return h("section", { class: "card", id: "entrants" }, h("h2", {}, `${et("entrants")} (${ev.entrants.length})`),
    h("table", { class: "ev-table" },
      h("thead", {}, h("tr", {}, ["seed", "player", "rank", "account"].map((k) => h("th", {}, et(k))))),
      h("tbody", {}, ev.entrants.map((e) => h("tr", { "data-entrant": e.name, class: e.withdrawn ? "withdrawn" : e.suspended ? "suspended" : null },
        h("td", {}, String(e.seed)),
        h("td", {}, e.name, e.withdrawn ? h("span", { class: "tag" }, et("withdrawn")) : null, e.suspended ? h("span", { class: "tag bad" }, et("suspended")) : null),
        h("td", {}, e.rank || ""), h("td", {}, e.account ? h("a", { href: `#/user/${encodeURIComponent(e.account)}` }, e.account) : ""))))));
}

function roundTable(h, ev, r) {
  const who = (name, p) => (name ? [name, p.checked_in.includes(name) ? h("span", { class: "tick", title: et("checked") }, " ✓") : null] : [h("i", {}, et("bye"))]);
  return h("div", { class: "round", "data-round": r.round },
    h("h3", {}, etf("round_n", { n: r.round }), " ",
      h("small", {}, r.started_ms ? etf("started_at", { t: time(r.started_ms) }) : et("not_started")), " ",
      h("a", { href: `#/event/${ev.id}/round/${r.round}/boards`, class: "boards-link" }, et("boards_link"))),
    r.absent_at_ms && !r.pairings.every((p) => p.result) ? h("p", { class: "hint" }, etf("absent_at", { t: time(r.absent_at_ms) })) : null,
    h("div", { class: "scroll" }, h("table", { class: "ev-table" },
      h("thead", {}, h("tr", {}, ["board", "black", "white", "passes", "komi", "result", "game"].map((k) => h("th", {}, et(k))))),
      h("tbody", {}, r.pairings.map((p) => h("tr", { "data-board": p.board, "data-result": p.result || "" },
        h("td", {}, String(p.board)), h("td", {}, who(p.black, p)), h("td", {}, p.white ? who(p.white, p) : h("i", {}, et("bye"))),
        h("td", {}, p.white ? String(p.handicap_passes) : ""), h("td", {}, p.white ? String(p.komi) : ""),
        h("td", { class: "result", title: resultWords(p.result) }, p.result || ""),
        h("td", {}, p.game_id ? h("a", { href: `#/game/${p.game_id}`, class: "game-link", title: `#${p.game_id}` }, et("watch")) : "")))))));
}

function standingsCard(h, ev, st) {
  const mc = ev.agreement.format === "mcmahon";
  const keys = ["place", "player", "main", ...(mc ? ["mcmahon"] : []), "A1", "A2", "B1", "B2", "wins", "losses", "forfeits"];
  const head = (k) => h("th", { scope: "col" }, /^[AB][12]$/.test(k) ? k : et(k));
  const val = (s, k) => (k === "place" ? s.rank : k === "player" ? s.player : s[k.toLowerCase()]);
  return h("section", { class: "card", id: "standings" }, h("h2", {}, et("standings")),
    h("div", { class: "scroll" }, h("table", { class: "ev-table" },
      h("thead", {}, h("tr", {}, keys.map(head))),
      h("tbody", {}, st.map((s) => h("tr", { "data-player": s.player }, keys.map((k) => h("td", { "data-key": k }, String(val(s, k) ?? "")))))))));
}

/** The crosstable: a row a player in standings order, a column a round: the opponent's place,
 * `+` won, `−` lost, `=` void, and the colour (b/w). */
function crosstableCard(h, ev, st) {
  if (!ev.rounds.length || !st.length) return null;
  const place = new Map(st.map((s, i) => [s.player, i + 1]));
  const cell = (name, r) => {
    const p = r.pairings.find((x) => x.black === name || x.white === name);
    if (!p) return "";
    if (!p.white) return `${et("bye")}`;
    const black = p.black === name;
    const opp = black ? p.white : p.black;
    const mark = !p.result ? "?" : p.result === "void" ? "=" : (p.result[0] === "B") === black ? "+" : "−";
    return `${place.get(opp) ?? opp}${mark}${black ? "b" : "w"}`;
  };
  return h("section", { class: "card", id: "crosstable" }, h("h2", {}, et("crosstable")),
    h("p", { class: "controls" },
      h("a", { href: `/api/events/${ev.id}/crosstable.svg`, target: "_blank", rel: "noopener" }, et("cross_svg")),
      h("a", { href: `/api/events/${ev.id}/crosstable.html`, target: "_blank", rel: "noopener" }, et("cross_html"))),
    h("div", { class: "scroll" }, h("table", { class: "ev-table cross" },
      h("thead", {}, h("tr", {}, h("th", {}, et("place")), h("th", {}, et("player")), ev.rounds.map((r) => h("th", {}, String(r.round))), h("th", {}, et("main")))),
      h("tbody", {}, st.map((s, i) => h("tr", {}, h("td", {}, String(i + 1)), h("td", {}, s.player),
        ev.rounds.map((r) => h("td", {}, cell(s.player, r))), h("td", {}, String(s.main))))))));
}

/** A knockout's bracket, as the server draws it. */
function bracketCard(h, ev) {
  if (!/knockout/.test(ev.agreement.format) || !ev.rounds.length) return null;
  const n = ev.rounds.map((r) => r.pairings.filter((p) => p.result).length).join(".");
  return h("section", { class: "card", id: "bracket" }, h("h2", {}, et("bracket")),
    h("img", { src: `/api/events/${ev.id}/bracket.svg?r=${n}`, alt: et("bracket"), class: "bracket-svg" }));
}

// ---------------------------------------------------------------- the event page

function eventPage(ctx, id) {
  const { api, session, main, h } = ctx;
  const top = h("div", { id: "event-top" });
  const actions = h("section", { class: "card", id: "event-actions" });
  const err = h("p", { class: "error", role: "alert", id: "event-error" });
  const body = h("div", { id: "event-body" });
  main.append(top, actions, err, body);
  let ev = null, st = [], drawnKey = null, drawnActions = null;
  let awaiting = false; // checked in on this page: taken to the game when it starts
  const registeredKey = `ingo-registered-${id}`;

  function drawActions() {
    const mine = myEntrant(ev, session);
    const cur = ev.rounds[ev.rounds.length - 1];
    const p = mine && cur && cur.pairings.find((x) => x.black === mine.name || x.white === mine.name);
    // The server says whether this account has registered; the browser's note covers the
    // moment between the answer and the next read of the event.
    const registered = ev.registered || !!sessionStorage.getItem(registeredKey);
    const key = JSON.stringify([!!session.me, ev.registration_open, mine, p, registered, getLang()]);
    if (key === drawnActions) return;
    drawnActions = key;
    const out = [];
    if (ev.registration_open && !mine) {
      if (!session.me) out.push(h("p", {}, h("a", { href: "#/login" }, et("log_in_register"))));
      else if (registered) out.push(h("p", { id: "registered", class: "note" }, et("registered")));
      else out.push(h("button", { id: "register-event", class: "primary", onclick: register }, et("register_btn")));
    }
    if (mine) out.push(h("p", {}, etf("you_entrant", { name: mine.name })));
    if (p && p.white && !p.result) {
      if (p.game_id) out.push(h("a", { href: `#/game/${p.game_id}`, class: "button primary", id: "my-game" }, etf("your_game", { n: cur.round })));
      else if (p.checked_in.includes(mine.name)) out.push(h("p", { id: "checked-in", class: "note" }, etf("checked_wait", { n: cur.round })));
      else out.push(h("button", { id: "checkin", class: "primary", onclick: checkIn }, etf("checkin_btn", { n: cur.round })));
    }
    if (session.me && session.me.is_director) out.push(h("p", {}, h("a", { href: `#/event/${id}/direct`, id: "direct-link" }, et("direct"))));
    actions.hidden = !out.length;
    actions.replaceChildren(...out);
  }

  async function register() {
    err.textContent = "";
    try {
      await api("POST", `/api/events/${id}/register`, {});
      sessionStorage.setItem(registeredKey, "1");
    } catch (x) {
      if (x.reason === "already-registered") sessionStorage.setItem(registeredKey, "1");
      else err.textContent = reasonText(x);
    }
    drawnActions = null;
    load();
  }

  async function checkIn() {
    err.textContent = "";
    try {
      const r = await api("POST", `/api/events/${id}/checkin`, {});
      if (r && r.game_id) { location.hash = `#/game/${r.game_id}`; return; }
      awaiting = true;
    } catch (x) { err.textContent = reasonText(x); }
    load();
  }

  function draw() {
    const key = JSON.stringify([ev, st, getLang()]);
    drawActions();
    if (key === drawnKey) return;
    drawnKey = key;
    top.replaceChildren(h("h2", { id: "event-name" }, ev.name, " ", h("small", { class: "tag", id: "event-status" }, et(`st_${ev.status}`))),
      h("p", { class: "hint", id: "event-live" }, probe.mode === "socket" ? et("live_socket") : et("live_poll")));
    const rounds = h("section", { class: "card", id: "rounds" }, h("h2", {}, et("rounds")),
      ...[...ev.rounds].reverse().map((r) => roundTable(h, ev, r)));
    const exp = h("section", { class: "card", id: "exports" }, h("h2", {}, et("exports")),
      h("p", { class: "controls" },
        h("a", { href: `/api/events/${id}/export.csv`, download: `event-${id}.csv`, class: "button", id: "export-csv" }, et("csv")),
        h("a", { href: `/api/events/${id}/export.h`, download: `event-${id}.h`, class: "button", id: "export-egf" }, et("egf")),
        h("a", { href: `/api/events/${id}/games.sgf`, download: `event-${id}.sgf`, class: "button", id: "export-sgf" }, et("sgf"))));
    body.replaceChildren(h("div", { class: "two" },
      h("div", {}, standingsCard(h, ev, st), rounds),
      h("div", {}, agreementCard(h, ev), entrantsCard(h, ev), crosstableCard(h, ev, st), bracketCard(h, ev), exp)));
  }

  const load = serial(async () => {
    try {
      [ev, st] = await Promise.all([api("GET", `/api/events/${id}`), api("GET", `/api/events/${id}/standings`)]);
    } catch (x) {
      if (!ev) { top.replaceChildren(h("p", { class: "error" }, reasonText(x))); }
      return;
    }
    probe.loads++;
    // Checked in before the start: the game, once the round starts it.
    const mine = myEntrant(ev, session);
    const cur = ev.rounds[ev.rounds.length - 1];
    const p = mine && cur && cur.pairings.find((x) => x.black === mine.name || x.white === mine.name);
    if (awaiting && p && p.game_id && !p.result) { location.hash = `#/game/${p.game_id}`; return; }
    draw();
  });
  load();
  return follow(id, load);
}

// ---------------------------------------------------------------- a new event

function newEventPage(ctx) {
  const { api, session, main, h } = ctx;
  if (!session.me || !session.me.is_director) { main.append(h("p", { class: "error" }, et("director_only"))); return null; }
  const err = h("p", { class: "error", role: "alert", id: "new-event-error" });
  const text = h("textarea", { id: "agreement-text", rows: 16, spellcheck: "false",
    placeholder: 'name = "…"\npurpose = "…"\neligibility = "…"\nregistration = { opens = "2026-12-01", closes = "2026-12-02" }\nsize = 19\ntime = { control = "ing-pp:1h" }\nformat = { kind = "swiss", rounds = 5 }' });
  const form = h("form", { class: "card", id: "new-event-form" }, h("h2", {}, et("new_event")), h("p", {}, et("create_intro")), text,
    h("button", { type: "submit", class: "primary" }, et("create_btn")), err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    try {
      const r = await fetch("/api/events", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/toml", "X-CSRF-Token": session.me.csrf }, body: text.value });
      const d = await r.json().catch(() => ({}));
      if (!r.ok) { err.textContent = reasonText({ reason: d.reason, message: d.message || `${r.status}` }); return; }
      location.hash = `#/event/${d.id}/direct`;
    } catch (x) { err.textContent = x.message; }
  });
  main.append(form);
  return null;
}

// ---------------------------------------------------------------- the director's page

function directorPage(ctx, id) {
  const { api, session, main, h } = ctx;
  if (!session.me || !session.me.is_director) { main.append(h("p", { class: "error", id: "not-director" }, et("director_only"))); return null; }
  const err = h("p", { class: "error", role: "alert", id: "direct-error" });
  const ok = h("p", { class: "hint", role: "status", id: "direct-ok" });
  const top = h("div");
  const live = h("div", { id: "direct-live" });
  main.append(top, err, ok, live);
  let ev = null, log = [], drawnKey = null;

  /** Sends a director's request, says what became of it, and reloads. */
  async function act(method, path, body) {
    err.textContent = ""; ok.textContent = "";
    try { await api(method, `/api/events/${id}${path}`, body); ok.textContent = et("done"); } catch (x) { err.textContent = reasonText(x); }
    await load();
  }
  const input = (keep, attrs = {}) => h("input", { "data-keep": keep, ...attrs });

  function draw() {
    const cur = ev.rounds[ev.rounds.length - 1];
    const curDone = !cur || cur.pairings.every((p) => p.result || !p.white);
    top.replaceChildren(h("h2", {}, `${et("direct")}: `, h("a", { href: `#/event/${id}` }, ev.name), " ",
      h("small", { class: "tag", id: "event-status" }, et(`st_${ev.status}`))));
    const reg = h("section", { class: "card", id: "direct-registration" }, h("h2", {}, et("registration")),
      h("button", { id: "toggle-registration", onclick: () => act("POST", "/registration", { open: !ev.registration_open }) },
        ev.registration_open ? et("close_reg") : et("open_reg")),
      h("h3", {}, et("pending")),
      h("ul", { class: "list", id: "pending" }, ev.pending.length ? ev.pending.map((p) => h("li", { "data-pending": p.name },
        h("span", {}, `${p.name} (${p.rank || "?"}) · ${time(p.at_ms)}`),
        h("span", {}, input(`approve-rank-${p.name}`, { value: p.rank || "", "aria-label": et("rank"), class: "rank", size: 5 }),
          h("button", { class: "approve", onclick: (e) => act("POST", "/entrants/approve", { name: p.name, rank: e.target.parentNode.querySelector("input").value || undefined }) }, et("approve")))))
        : [h("li", {}, "—")]),
      h("form", { class: "inline", id: "enter-form", onsubmit: (e) => { e.preventDefault(); const d = Object.fromEntries(new FormData(e.target)); act("POST", "/entrants", { name: d.name, rank: d.rank || undefined }); } },
        h("label", {}, et("enter"), input("enter-name", { name: "name", autocomplete: "off" })),
        h("label", {}, et("rank"), input("enter-rank", { name: "rank", size: 5 })), h("button", { type: "submit" }, et("enter_btn"))));
    const ents = h("section", { class: "card", id: "direct-entrants" }, h("h2", {}, et("entrants")),
      h("ul", { class: "list" }, ev.entrants.map((e) => h("li", { "data-entrant": e.name },
        h("span", {}, `${e.seed}. ${e.name}`, e.withdrawn ? h("span", { class: "tag" }, et("withdrawn")) : null, e.suspended ? h("span", { class: "tag bad" }, et("suspended")) : null),
        h("span", { class: "controls" },
          input(`rank-${e.name}`, { value: e.rank || "", "aria-label": et("rank"), class: "rank", size: 5 }),
          input(`rank-reason-${e.name}`, { placeholder: et("reason"), "aria-label": et("reason"), class: "reason" }),
          h("button", { class: "set-rank", onclick: (x) => { const [r, why] = x.target.parentNode.querySelectorAll("input"); act("POST", "/entrants/rank", { name: e.name, rank: r.value, reason: why.value || undefined }); } }, et("set_rank")),
          h("button", { class: e.withdrawn ? "reinstate" : "withdraw danger", onclick: (x) => { const why = x.target.parentNode.querySelectorAll("input")[1].value; act("POST", e.withdrawn ? "/entrants/reinstate" : "/entrants/withdraw", { name: e.name, reason: why || undefined }); } },
            e.withdrawn ? et("reinstate") : et("withdraw")))))));
    const pairing = h("section", { class: "card", id: "direct-pairing" }, h("h2", {}, et("pairing")),
      h("p", { class: "controls" },
        h("button", { id: "pair-auto", class: "primary", disabled: !curDone, onclick: () => act("POST", "/rounds", { allow_rematches: live.querySelector("#allow-rematches").checked, reason: live.querySelector("#pair-reason").value || undefined }) }, et("pair_auto")),
        h("label", {}, input("allow-rematches", { type: "checkbox", id: "allow-rematches" }), " ", et("allow_rematches"))),
      h("label", {}, et("reason"), input("pair-reason", { id: "pair-reason" })),
      h("label", {}, et("pair_hand"), h("textarea", { "data-keep": "pair-hand", id: "pair-hand", rows: 4, placeholder: ev.entrants.slice(0, 2).map((e) => e.name).join(" ") })),
      h("label", {}, et("bye_field"), input("pair-bye", { id: "pair-bye" })),
      h("button", { id: "pair-hand-btn", disabled: !curDone, onclick: () => {
        const games = live.querySelector("#pair-hand").value.split("\n").map((l) => l.trim().split(/[\s,，–-]+/).filter(Boolean)).filter((x) => x.length === 2);
        act("POST", "/rounds", { games, bye: live.querySelector("#pair-bye").value || undefined, reason: live.querySelector("#pair-reason").value || undefined });
      } }, et("pair_hand_btn")));
    const round = cur ? h("section", { class: "card", id: "direct-round" }, h("h2", {}, etf("round_n", { n: cur.round }), " ",
      h("a", { href: `#/event/${id}/round/${cur.round}/boards` }, et("boards_link"))),
      !cur.started_ms ? h("button", { id: "start-round", class: "primary", onclick: () => act("POST", `/rounds/${cur.round}/start`, {}) }, etf("start_round", { n: cur.round })) : h("p", {}, etf("started_at", { t: time(cur.started_ms) })),
      (() => {
        const missing = cur.pairings.filter((p) => p.white && !p.result).flatMap((p) => [p.black, p.white].filter((n) => !p.checked_in.includes(n)));
        return missing.length ? h("div", { id: "not-checked" }, h("h3", {}, etf("not_checked", { n: cur.round })), h("ul", { class: "list" }, missing.map((n) => h("li", { "data-name": n }, n))))
          : h("p", { id: "not-checked", "data-none": "" }, etf("everyone_checked", { n: cur.round }));
      })(),
      roundTable(h, ev, cur)) : null;
    const boards = cur ? cur.pairings.filter((p) => p.white).map((p) => h("option", { value: `${cur.round}:${p.board}` }, `${etf("round_n", { n: cur.round })} · ${et("board")} ${p.board}: ${p.black} – ${p.white}${p.result ? ` (${p.result})` : ""}`)) : [];
    const older = ev.rounds.slice(0, -1).reverse().flatMap((r) => r.pairings.filter((p) => p.white).map((p) => h("option", { value: `${r.round}:${p.board}` }, `${etf("round_n", { n: r.round })} · ${et("board")} ${p.board}: ${p.black} – ${p.white}${p.result ? ` (${p.result})` : ""}`)));
    const decision = ev.rounds.length ? h("form", { class: "card", id: "decision-form", onsubmit: (e) => {
      e.preventDefault();
      const d = new FormData(e.target);
      const [r, b] = String(d.get("game")).split(":").map(Number);
      const clear = !!d.get("clear");
      act("POST", "/results", { round: r, board: b, result: clear ? undefined : d.get("result") || undefined, reason: d.get("reason"), change: !!d.get("change"), clear });
    } }, h("h2", {}, et("decision")),
      h("label", {}, et("game"), h("select", { name: "game", "data-keep": "dec-game" }, boards, older)),
      h("label", {}, et("dec_result"), input("dec-result", { name: "result", list: "dec-results", autocomplete: "off" }),
        h("datalist", { id: "dec-results" }, ["B+R", "W+R", "B+F:takeback", "W+F:takeback", "B+F:defiance", "W+F:defiance", "B+T", "W+T", "void"].map((v) => h("option", { value: v })))),
      h("label", {}, et("reason"), input("dec-reason", { name: "reason", required: true })),
      h("label", { class: "check" }, input("dec-change", { type: "checkbox", name: "change" }), " ", et("change")),
      h("label", { class: "check" }, input("dec-clear", { type: "checkbox", name: "clear" }), " ", et("clear")),
      h("button", { type: "submit", id: "decide" }, et("decide"))) : null;
    const close = h("section", { class: "card" }, h("button", { class: "danger", id: "close-event", disabled: ev.status === "closed", onclick: () => act("POST", "/close", {}) }, et("close_event")));
    const logBox = h("section", { class: "card", id: "event-log" }, h("h2", {}, et("log")),
      h("div", { class: "scroll" }, h("table", { class: "ev-table" },
        h("thead", {}, h("tr", {}, ["when", "action", "round_col", "board", "player", "old", "new_v", "reason"].map((k) => h("th", {}, et(k))))),
        h("tbody", {}, [...log].reverse().map((l) => h("tr", { "data-action": l.action },
          [time(l.at_ms), l.action, l.round ?? "", l.board ?? "", l.entrant ?? "", l.old ?? "", l.new ?? "", l.reason ?? ""].map((v) => h("td", {}, String(v)))))))));
    keeping(live, () => live.replaceChildren(h("div", { class: "two" }, h("div", {}, round, pairing, decision), h("div", {}, reg, ents, close, logBox))));
  }

  const load = serial(async () => {
    try {
      [ev, log] = await Promise.all([api("GET", `/api/events/${id}`), api("GET", `/api/events/${id}/log`)]);
    } catch (x) { err.textContent = reasonText(x); return; }
    probe.loads++;
    const key = JSON.stringify([ev, log, getLang()]);
    if (key === drawnKey) return;
    drawnKey = key;
    draw();
  });
  load();
  return follow(id, load);
}

// ---------------------------------------------------------------- demonstration boards (傳譜)

/** Every board of round `n` live on one page; each opens its game. */
function boardsPage(ctx, id, n) {
  const { api, main, h } = ctx;
  const projector = () => localStorage.getItem("ingo-projector") === "1";
  const grid = h("div", { class: "demo-grid", id: "demo-boards" });
  const title = h("h2", { id: "demo-title" });
  const toggle = h("button", { id: "projector", onclick: () => {
    localStorage.setItem("ingo-projector", projector() ? "0" : "1");
    layout();
  } });
  main.append(h("div", { class: "demo-head" }, title, h("span", { class: "controls" }, toggle, h("a", { href: `#/event/${id}`, class: "button" }, et("back_event")))), grid);
  function layout() {
    document.body.classList.toggle("projector", projector());
    toggle.textContent = projector() ? et("normal") : et("projector");
  }
  layout();
  const cards = new Map(); // board → { el, gid, board, info, g, ws, retry }
  let closed = false;
  let size = 19;
  probe.boards = {};

  function drawCard(c) {
    const g = c.g;
    if (!g) return;
    const last = g.moves.length ? g.moves[g.moves.length - 1].move : null;
    c.board.draw(g.board, { last: last && last !== "pass" ? last.toUpperCase() : null });
    const res = g.result ? g.result.result : null;
    c.info.replaceChildren(
      h("span", { class: "demo-names" }, h("span", { class: "dot black" }), `${g.black.name} (${g.black.rank})`, " – ",
        h("span", { class: "dot white" }), `${g.white.name} (${g.white.rank})`),
      h("span", { class: "demo-state" }, res ? h("b", { class: "demo-result" }, res) : `${etf("moves_n", { n: g.move_count })} · ${g.to_move === "B" ? et("black") : et("white")}`));
    c.el.dataset.moves = String(g.move_count);
    c.el.dataset.result = res || "";
    probe.boards[c.pairing.board] = { moves: g.move_count, result: res };
  }

  async function fetchGame(c) {
    try { c.g = await api("GET", `/api/games/${c.gid}`); drawCard(c); } catch { /* shown on the next message */ }
  }

  function connect(c) {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    c.ws = new WebSocket(`${proto}://${location.host}/api/games/${c.gid}/ws`);
    c.ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.type === "state") { c.g = m.game; drawCard(c); }
      else if (m.type === "move" && c.g) {
        if (m.number <= c.g.move_count) return;
        const next = m.number === c.g.move_count + 1 && Array.isArray(m.removed) ? placeMove(c.g.board, c.g.size, m.move, m.color, m.removed) : null;
        if (!next) { fetchGame(c); return; }
        c.g = { ...c.g, board: next, moves: [...c.g.moves, { number: m.number, color: m.color, move: m.move }], move_count: m.number, to_move: m.to_move, phase: m.phase || c.g.phase };
        drawCard(c);
      }
    };
    c.ws.onclose = () => {
      if (closed || (c.g && c.g.phase === "ended")) return;
      c.retry = setTimeout(() => { if (!closed) connect(c); }, 2000);
    };
  }

  function cardFor(p) {
    let c = cards.get(p.board);
    if (!c) {
      const boxEl = h("div", { class: "board-box" });
      const info = h("div", { class: "demo-info" });
      const el = h("a", { class: "demo-card card", "data-board": p.board, "aria-label": `${et("board")} ${p.board}` },
        h("div", { class: "demo-no" }, `${et("board")} ${p.board}`), boxEl, info);
      grid.append(el);
      c = { el, info, boxEl, board: null, gid: null, g: null, ws: null, pairing: p };
      cards.set(p.board, c);
    }
    c.pairing = p;
    if (p.game_id && c.gid !== p.game_id) {
      c.gid = p.game_id;
      c.el.setAttribute("href", `#/game/${p.game_id}`);
      c.boxEl.replaceChildren();
      c.board = new BoardView(c.boxEl, size, { label: `${et("board")} ${p.board}` });
      c.board.svg.removeAttribute("tabindex");
      connect(c);
    } else if (!p.game_id) {
      c.info.replaceChildren(h("span", { class: "demo-names" }, `${p.black} – ${p.white || et("bye")}`),
        h("span", { class: "demo-state" }, p.result ? h("b", { class: "demo-result" }, p.result) : et("waiting_start")));
      c.el.dataset.result = p.result || "";
    }
    return c;
  }

  const load = serial(async () => {
    let ev;
    try { ev = await api("GET", `/api/events/${id}`); } catch (x) { title.textContent = reasonText(x); return; }
    probe.loads++;
    size = ev.agreement.size;
    title.replaceChildren(`${ev.name} · ${etf("demo", { n })}`);
    const r = ev.rounds.find((x) => x.round === n);
    if (!r) return;
    for (const p of r.pairings) if (p.white) cardFor(p);
  });
  load();
  const stop = follow(id, load);
  return () => {
    closed = true;
    stop();
    document.body.classList.remove("projector");
    for (const c of cards.values()) { clearTimeout(c.retry); if (c.ws) c.ws.close(); }
  };
}
