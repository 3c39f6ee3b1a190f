// English and traditional Chinese, with the rule text's own terms (應氏計點制規則, 2001).

const en = {
  title: "ingo — Go under Ing's rules",
  lobby: "Lobby", judge: "Judge an SGF", login: "Log in", register: "Register", logout: "Log out",
  name: "Name", password: "Password", rank: "Rank (e.g. 1d 段, 5k 級, 3p 品)",
  open_challenges: "Open challenges", new_challenge: "New challenge", live_games: "Games in progress",
  size: "Board size", handicap: "Colours", nigiri: "Even game, colours by nigiri",
  by_ranks: "Handicap from the two ranks (§6)", time_control: "Time control",
  opponent: "Opponent (optional: only this player may accept)", anyone: "anyone",
  builtin: "the built-in player", play_bot: "Play the built-in player", strength: "Strength",
  weak: "weak (100 playouts a move)", medium: "medium (1,000 playouts)", strong: "strong (10,000 playouts)",
  level_rank: "{level} · {rank} on 19×19",
  your_color: "Your colour", create: "Challenge", accept: "Accept", cancel: "Cancel", decline: "Decline", declined_by: "{name} declined your challenge.",
  your_finished_games: "Your finished games", rematch: "Rematch, colours swapped", challenger_takes: "even game, {name} takes {color}",
  watch: "Watch", none: "None.", waiting: "Waiting for an opponent…",
  black: "Black", white: "White", to_move: "to move", your_turn: "Your turn", partner_turn: "your partner",
  pass: "Pass (虛手)", resign: "Resign", numbers: "Move numbers", download: "Download SGF",
  captures: "captures", basic: "Basic time", overtime: "Overtime", penalty: "penalty points",
  periods: "periods", lost_on_time: "lost on time",
  main_time: "Main time", byoyomi: "Byo-yomi", time_up: "Time is up", max: "at most",
  periods_left: "{n} periods left", stones_in_period: "{n} stones to play in this period",
  then_stones: "then {n} stones in {t}", next_penalty: "{n} points in {t}",
  clock_sound: "Clock sound", clock_sound_hint: "A beep when your basic time, a period or a penalty step is about to run out",
  undo: "Take back my move", undo_asked: "You asked to take back move {n}; waiting for the answer.",
  undo_asks: "{color} asks to take back move {n}.", undo_grant: "Grant", undo_decline: "Decline",
  your_games: "Your games", their_turn: "Waiting for the opponent",
  move_n: "Move {n}", no_such_game: "There is no game {id}.",
  confirm_moves: "Confirm each move", play_here: "Play {point}",
  tc_none: "no time limit", tc_absolute: "{main} for the game",
  tc_byoyomi: "{main}, then byo-yomi: {n} periods of {p}",
  tc_ing_rs: "basic time {main}, then byo-yomi (讀秒延時): {n} periods of {p}",
  tc_canadian: "{main}, then {n} stones in every {p} (Canadian)",
  tc_fischer: "{main}, and {inc} more after each move (Fischer)",
  tc_fischer_max: "{main}, and {inc} more after each move, up to {max} (Fischer)",
  tc_ing_pp: "basic time {main}, then penalty points (罰點延時): 2 when it runs out, 2 more after each {step} of overtime, lost on time after {limit}",
  rules_ing: "Ing's rules (應氏計點制)", rules_other: "rules: {name}",
  komi_tie: "komi {komi}, a tie to {color}", time_words: "time: {tc}", komi_only: "komi {komi}",
  handicap_passes: "White gives {n} handicap passes (讓手)", handicap_pass: "handicap pass {k} of {n}",
  phase_playing: "playing", phase_suspended: "suspended (dead stones)", phase_ended: "over",
  not_for_you: "offered to {name}",
  play_goes_on: "The game is not over: play goes on, {color} to move after move {n}. The count if play stopped here",
  suspended_judge: "Play is suspended after two passes: the dead stones are to be agreed. The count if play stopped here",
  players_chat: "Players' chat", spectators_chat: "Spectators' chat", side_chat: "Our side's chat",
  kind: "Players a side", kind_single: "One a side", kind_pair: "Pair go (聯棋): two a side, moving in turn",
  kind_consultation: "Consultation (商談聯棋): two or more a side, moving once the side agrees",
  agreement: "A side agrees when", agreement_all: "every member agrees", agreement_majority: "a majority agrees",
  agreement_any: "any member moves for the side",
  proposals: "Our side's proposals", no_proposals: "No proposal yet: your move on the board is proposed to your side.",
  votes: "votes", agree: "Agree", withdraw: "Withdraw my proposal", proposed: "Proposed to your side; it is played when the side agrees.",
  propose_resign: "resign",
  partners: "Your partners (in playing order)", opponents: "Opponents (in playing order)",
  names_hint: "names, separated by commas", waiting_seats: "Waiting for the other players…",
  send: "Send", move: "Move", of: "of",
  keys: "Keyboard: Tab to the board, arrows to choose a point, Enter to play or mark.",
  suspended: "Play is suspended after two passes (著手休止). Mark the dead stones: a click marks or frees a whole string. Accept the proposal, or resume play to settle it on the board.",
  server_proposal: "The server's proposal: every stone alive; mark what is dead.",
  server_dead: "The server's proposal (its judgement of the end of the game), dead stones",
  proposal: "Proposed dead stones", accepted_by: "accepted by", accept_dead: "Accept these dead stones",
  resume: "Resume play", resume_hint: "Resuming: your next click plays a stone.",
  result: "Result", count: "The count (填滿計點)", area: "Area", stones_w: "stones", spaces: "spaces",
  shared: "Shared points (分空)", fill: "Stones filled in (each side has {n})",
  spaces_left: "{n} spaces left over (勝空)", spaces_left_one: "1 space left over (勝空)",
  stones_left: "{n} stones too many (負子)", stones_left_one: "1 stone too many (負子)", compensation: "Compensation stones to White (還子)", komi: "komi",
  left_after: "Left after filling", filled_exactly: "filled exactly", net: "After the exchanges",
  penalty_stones: "Penalty stones (罰子)", margin: "Margin (差值)", points: "{n} points", points_one: "1 point",
  finished_games: "Finished games", review: "Review", first: "First", prev: "Back", next: "Forward", last: "Last",
  judge_intro: "Upload an SGF record: the server replays it under its rules (Ing's by default) and shows the first illegal move with its reason, or the count.",
  judge_run: "Judge", all_legal: "Every move is legal.", illegal_at: "Illegal move",
  game_over: "The game is over", reason_resignation: "by resignation", reason_time: "on time",
  reason_agreement: "counted after agreement on dead stones", reason_passes: "counted after four passes",
  reason_forfeit: "by forfeit", reason_absence: "by absence: no move for too long against a program",
  "reason_engine-crash": "by forfeit: the engine crashed", "reason_engine-timeout": "on time: the engine did not answer",
  "reason_engine-garbage": "by forfeit: the engine answered nonsense", "reason_engine-illegal-move": "by forfeit: the engine played an illegal move",
  "reason_engine-unavailable": "by forfeit: the engine could not be started",
  running_count: "If both accept these dead stones: {result} (Black's area {b}, White's {w}, shared {s})",
  checks: "Verdicts to check (ringed): {list}", checks_key: "48%: the share of the server's playouts that kept the string alive · R: read in a capture race · A: a race at one liberty each · S: dead by its eye shape · G: dead by a search of its group's life · F: taken in the fill · K: took a ko last, not to be taken back at once",
  estimate: "Estimate the score", estimate_hide: "Hide the estimate",
  estimate_text: "Estimate after move {n}: {result} (Black's area {b}, White's {w}). The server's end-of-game judgement of the position as it stands; it decides nothing.",
  estimate_off: "Score estimates are off in this game.",
  variation: "Variation", variation_hint: "Click the board to play a variation from the move shown; the server applies Ing's rules to it.",
  variation_from: "Variation from move {n}", back_to_game: "Back to the game", variation_sgf: "Download SGF with the variations",
  variation_refused: "Refused: {color} {move}", variations_n: "{n} variations kept",
  alerts: "Alerts", alert_sound: "A sound when something needs you", stone_sound: "Stone sounds",
  alert_notify: "Browser notifications", alert_denied: "Notifications are blocked in this browser's settings.",
  alert_accepted: "{name} accepted your challenge", alert_turn: "Your turn: {black} – {white}", alert_clock: "Your clock is running low: {black} – {white}",
  go_to_game: "Go to the game",
  tc_preset: "Time control preset", preset_blitz: "Blitz", preset_rapid: "Rapid", preset_fischer: "Increment",
  preset_ing_short: "Ing's, short", preset_ing_hour: "Ing's, one hour", preset_ing_cup: "Ing's 3 hours, as in the Ing Cup",
  preset_ing_rs: "Ing's with byo-yomi", preset_correspondence: "Correspondence: 3 days a move", preset_untimed: "Untimed", preset_other: "Other: type it below (e.g. canadian:20m+25/5m)",
  tc_unread: "Not a time control the server reads (see the examples).",
  spectators: "You are watching this game.", not_logged: "Log in to play; anyone may watch.",
  reasons: {},
};

const zh = {
  title: "ingo — 應氏計點制對局",
  lobby: "對局室", judge: "判定棋譜", login: "登入", register: "註冊", logout: "登出",
  name: "名稱", password: "密碼", rank: "段位（例：1d 段、5k 級、3p 品）",
  open_challenges: "待應戰的挑戰", new_challenge: "發起挑戰", live_games: "進行中的對局",
  size: "枰道", handicap: "執色", nigiri: "分先，猜先定黑白", by_ranks: "依段位讓手（第六條）",
  time_control: "時限", opponent: "對手（可留空；填名稱則僅此人可應戰）", anyone: "任何人",
  builtin: "內建棋手", play_bot: "與內建棋手對局", strength: "棋力",
  weak: "弱（每手 100 次模擬）", medium: "中（1,000 次）", strong: "強（10,000 次）", level_rank: "{level}・十九路 {rank}", your_color: "你執", create: "挑戰", accept: "應戰", cancel: "取消", decline: "謝絕", declined_by: "{name} 謝絕了你的挑戰。", your_finished_games: "你已完成的對局", rematch: "交換黑白再下一局", challenger_takes: "分先，{name} 執{color}", watch: "觀戰", none: "無。",
  waiting: "等待對手應戰…", black: "黑", white: "白", to_move: "著手", your_turn: "輪到你著手", partner_turn: "隊友",
  pass: "虛手", resign: "認輸", numbers: "手數", download: "下載棋譜 (SGF)", captures: "提子",
  basic: "基時", overtime: "延時", penalty: "罰點", periods: "次", lost_on_time: "逾時裁定敗",
  main_time: "基本時限", byoyomi: "讀秒", time_up: "時限已到", max: "至多",
  periods_left: "餘 {n} 次秒限", stones_in_period: "本節尚須著 {n} 手",
  then_stones: "其後每 {t} 著 {n} 手", next_penalty: "{t} 後共罰 {n} 點",
  clock_sound: "時限提醒聲", clock_sound_hint: "基時、秒限或罰點將屆前發聲提醒",
  undo: "悔棋請求", undo_asked: "你已請求悔第 {n} 手，待對方答覆。",
  undo_asks: "{color}請求悔第 {n} 手。", undo_grant: "同意", undo_decline: "不同意",
  your_games: "你的對局", their_turn: "待對方著手",
  move_n: "第 {n} 手", no_such_game: "沒有第 {id} 號對局。",
  confirm_moves: "著手前確認", play_here: "著於 {point}",
  tc_none: "不限時", tc_absolute: "全局 {main}",
  tc_byoyomi: "{main}，其後讀秒：{n} 次 {p}",
  tc_ing_rs: "基時 {main}，其後讀秒延時：{n} 次 {p} 秒限",
  tc_canadian: "{main}，其後每 {p} 須著 {n} 手（加拿大式）",
  tc_fischer: "{main}，每著一手加 {inc}（費雪制）",
  tc_fischer_max: "{main}，每著一手加 {inc}，至多 {max}（費雪制）",
  tc_ing_pp: "基時 {main}，罰點延時：基時用完罰二點，其後每延時 {step} 再罰二點，延時超過 {limit} 逾時裁定敗",
  rules_ing: "應氏計點制規則", rules_other: "規則：{name}",
  komi_tie: "貼還 {komi} 點，和棋{color}勝", time_words: "時限：{tc}", komi_only: "貼還 {komi} 點",
  handicap_passes: "白讓 {n} 手（讓手）", handicap_pass: "讓手第 {k} 手，共 {n} 手",
  phase_playing: "對局中", phase_suspended: "著手休止（判定死子）", phase_ended: "已終局",
  not_for_you: "僅限 {name} 應戰",
  play_goes_on: "對局尚未終了：著手繼續，第 {n} 手後輪到{color}著手。若於此停止，計點為",
  suspended_judge: "雙方各一虛手，著手休止，死子待協議。若於此停止，計點為",
  players_chat: "對局者交談", spectators_chat: "觀戰者交談", side_chat: "本方商談",
  kind: "每方人數", kind_single: "每方一人", kind_pair: "聯棋：每方二人輪流著手",
  kind_consultation: "商談聯棋：每方二人以上，本方同意後著手",
  agreement: "本方同意的方式", agreement_all: "全體同意", agreement_majority: "過半數同意",
  agreement_any: "任一人著手即為本方之著",
  proposals: "本方提案", no_proposals: "尚無提案：你在棋枰上著子，即向本方提出。",
  votes: "票", agree: "同意", withdraw: "撤回我的提案", proposed: "已向本方提出；本方同意後即著此手。",
  propose_resign: "認輸",
  partners: "本方隊友（依著手次序）", opponents: "對方（依著手次序）",
  names_hint: "名稱，以逗號分隔", waiting_seats: "等待其他棋手應戰…",
  send: "送出", move: "第", of: "手，共",
  keys: "鍵盤：Tab 移至棋枰，方向鍵選點，Enter 著子或標示。",
  suspended: "雙方各一虛手，著手休止。請標示死子：點一子即標示或取消整塊棋。同意提案，或恢復著手以實戰證明死活。",
  server_proposal: "伺服器的提案：全部為活子；請標示死子。",
  server_dead: "伺服器的提案（終局判斷）死子",
  proposal: "提議的死子", accepted_by: "已同意：", accept_dead: "同意此死子",
  resume: "恢復著手", resume_hint: "恢復著手：下一次點擊即著子。",
  result: "結果", count: "填滿計點", area: "域點", stones_w: "子", spaces: "空",
  shared: "分空", fill: "填子（每方 {n} 子）", spaces_left: "勝空 {n}", stones_left: "負子 {n}",
  compensation: "還子（黑還白）", komi: "還點", left_after: "填滿後所餘", filled_exactly: "恰好填滿", net: "還子、罰子後", penalty_stones: "罰子", margin: "差值", points: "{n} 點",
  finished_games: "已終局的對局", review: "覆盤", first: "首手", prev: "上一手", next: "下一手", last: "末手",
  judge_intro: "上傳 SGF 棋譜：伺服器依規則（預設應氏規則）重播，指出第一個不合規則的著手及其理由，或計點結果。",
  judge_run: "判定", all_legal: "全部著手皆合規則。", illegal_at: "不合規則的著手",
  game_over: "對局終了", reason_resignation: "認輸", reason_time: "逾時裁定敗",
  reason_agreement: "死子協議後填滿計點", reason_passes: "雙方各二虛手，著手終了後計點",
  reason_forfeit: "判負", reason_absence: "缺席判負：對電腦久未著手",
  "reason_engine-crash": "判負：程式當機", "reason_engine-timeout": "逾時裁定敗：程式未及時應答",
  "reason_engine-garbage": "判負：程式應答無效", "reason_engine-illegal-move": "判負：程式著不合規則之手",
  "reason_engine-unavailable": "判負：程式無法啟動",
  running_count: "雙方同意此死子，則計點為 {result}（黑方域點 {b}，白方 {w}，分空 {s}）",
  checks: "宜覆核的判斷（圈出）：{list}", checks_key: "48%：伺服器試下中該塊存活的比例 · R：對殺讀出 · A：雙方各一氣的對殺 · S：眼形為死 · G：全塊死活讀出為死 · F：填空時被提 · K：最後提劫之子，對方不得立即回提",
  estimate: "形勢判斷", estimate_hide: "隱藏形勢判斷",
  estimate_text: "第 {n} 手後的形勢判斷：{result}（黑方域點 {b}，白方 {w}）。伺服器對現局面的終局判斷，僅供參考，不作裁定。",
  estimate_off: "此局不得使用形勢判斷。",
  variation: "變化圖", variation_hint: "點擊棋枰，即從所示之手起著變化；伺服器依應氏規則判定。",
  variation_from: "第 {n} 手起的變化", back_to_game: "回到實戰", variation_sgf: "下載含變化的棋譜 (SGF)",
  variation_refused: "不合規則：{color} {move}", variations_n: "已保留 {n} 個變化",
  alerts: "提醒", alert_sound: "需要你時發聲", stone_sound: "落子聲",
  alert_notify: "瀏覽器通知", alert_denied: "此瀏覽器的設定封鎖了通知。",
  alert_accepted: "{name} 接受了你的挑戰", alert_turn: "輪到你著手：{black} – {white}", alert_clock: "你的時限將屆：{black} – {white}",
  go_to_game: "前往對局",
  tc_preset: "常用時限", preset_blitz: "快棋", preset_rapid: "中速", preset_fischer: "每手加時",
  preset_ing_short: "應氏短時限", preset_ing_hour: "應氏一小時", preset_ing_cup: "應氏三小時（應氏杯）",
  preset_ing_rs: "應氏讀秒延時", preset_correspondence: "通信對局：每手三日", preset_untimed: "不限時", preset_other: "其他：於下方輸入（例 canadian:20m+25/5m）",
  tc_unread: "伺服器讀不懂此時限（請參考範例）。",
  spectators: "你正在觀戰。", not_logged: "登入後即可對局；任何人皆可觀戰。",
  reasons: {
    "hot-stone": "此子為熱子：凡提取熱子必須間隔一實手或虛手。先在別處著一手（或虛手）後即可提回。",
    "double-hot": "雙熱子（長生）：先提者不得再提，以免循環；請著他處或虛手。",
    "twin-hot": "孿熱子：此時不得提取循環中的另一劫；請著他處或虛手。",
    "disturbing": "攪：第一次循環後，攪局方不得再提而重複局面。",
    "cycle": "此著將重複已完成的循環，應氏規則禁止。",
    "superko": "此著將重複先前的局面。",
    occupied: "此點已有棋子。", "off-board": "此點不在棋枰上。",
    suicide: "單子不得自盡（顆子自盡禁止）；只有多子之塊可以自殺。",
    "out-of-turn": "尚未輪到你著手。", "game-over": "對局已終了。",
    "partner-turn": "聯棋由隊友輪流著手：此手輪到你的隊友。",
    "no-such-proposal": "本方現在沒有其他人提出此手；請再看一次提案。",
    "not-a-member": "只有本方棋手能看到並回應本方的提案。",
    "no-agreement-step": "此局沒有提案：每一手一經著出即為本方之著。",
    "bad-agreement": "同意方式為「全體同意」、「過半數同意」或「任一人著手」；聯棋沒有同意方式。",
    "undo-not-allowed": "此局不得悔棋（比賽對局中悔棋判負）。", "no-undo-request": "沒有待答覆的悔棋請求（或已因後續著手而失效）。",
    "not-the-opponent": "只有對方能答覆悔棋請求。",
    "not-your-channel": "你不能在此交談：對局者交談限對局者，觀戰者交談限觀戰者，本方商談限本方棋手。",
  },
};

const tables = { en, zh };
let lang = localStorage.getItem("ingo-lang") || (navigator.language.startsWith("zh") ? "zh" : "en");

export function getLang() { return lang; }

export function setLang(l) {
  lang = tables[l] ? l : "en";
  localStorage.setItem("ingo-lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-Hant" : "en";
}

/** The text of `key` in the current language. */
export function t(key) {
  const v = tables[lang][key];
  return v === undefined ? en[key] ?? key : v;
}

/** The text of `key` with `{name}` replaced by `vars.name`. */
export function tf(key, vars) {
  return t(key).replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/**
 * The text of `key` for a count of `n`, with `{n}` and `vars` replaced: the table's `key_one`
 * for exactly one where the language has a singular (English), else `key`.
 */
export function tn(key, n, vars = {}) {
  const one = n === 1 && tables[lang][`${key}_one`] !== undefined ? `${key}_one` : key;
  return tf(one, { ...vars, n });
}

/** A refusal in words: the server's sentence, or the Chinese one for its reason code. */
export function reasonText(err) {
  return (lang === "zh" && zh.reasons[err.reason]) || err.message || err.reason;
}

setLang(lang);
