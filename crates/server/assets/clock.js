// The clocks of a game page, run by the page from the state the server gave: every phase of
// every time control (Ing's basic time with penalty points or byo-yomi, Japanese byo-yomi,
// Canadian, Fischer, absolute), counted as crates/clock counts them (`Clock::time_left`,
// `pp_status`), so that the page shows what the server's clock holds without waiting for a move.
// The server alone declares a loss on time; the page only shows the time run out meanwhile.

/**
 * What a side's clock shows `x` ms after the state `c` was taken (`x` is 0 for a clock that
 * does not run). `c`: the server's clock view (`main_ms`, `periods_or_stones`, `in_overtime`,
 * `penalty_points`, `running`, and `control`: `kind`, `main_ms`, `periods`, `stones`,
 * `period_ms`, `increment_ms`, `max_ms`).
 *
 * Answers `{timed, main_ms, periods_or_stones, in_overtime, penalty_points, lost, next_ms,
 * stage_ms, stage, warn}`: `main_ms` as `Clock::time_left` gives it (main time left; in
 * byo-yomi or Canadian overtime the time left in the period; in Ing's penalty-point overtime
 * the time left before the loss), `lost` once more time is used than the control allows,
 * `next_ms` the time to the next thing that happens (the end of the basic time, of a period,
 * the next penalty step, the loss), `stage_ms` the length of the stage it ends, `stage` a name
 * of the stage (a warning is given once per stage), `warn` whether it is near.
 */
export function clockAt(c, x) {
  const k = (c && c.control) || { kind: "none" };
  if (!c || k.kind === "none" || c.main_ms === null || c.main_ms === undefined) {
    return { timed: false, main_ms: null, periods_or_stones: 0, in_overtime: false, penalty_points: 0, lost: false, next_ms: null, stage_ms: null, stage: "none", warn: false };
  }
  x = Math.max(0, x || 0);
  let r;
  switch (k.kind) {
    case "absolute":
    case "fischer": {
      const left = c.main_ms - x;
      r = { main_ms: left, periods_or_stones: 0, in_overtime: false, next_ms: left, stage_ms: k.main_ms, stage: "main" };
      break;
    }
    case "byoyomi":
    case "ing-rs":
      r = byoYomi(c, k, x);
      break;
    case "canadian":
      r = canadian(c, k, x);
      break;
    case "ing-pp":
      r = penaltyPoints(c, k, x);
      break;
    default:
      return clockAt(null, 0);
  }
  const lost = !!r.lost || r.next_ms < 0;
  const out = {
    timed: true,
    main_ms: Math.max(0, Math.floor(r.main_ms)),
    periods_or_stones: lost && k.kind !== "ing-pp" ? 0 : r.periods_or_stones,
    in_overtime: r.in_overtime,
    penalty_points: r.penalty_points === undefined ? c.penalty_points || 0 : r.penalty_points,
    lost,
    next_ms: Math.max(0, r.next_ms),
    stage_ms: r.stage_ms,
    stage: r.stage,
  };
  if (out.lost) out.main_ms = 0;
  out.warn = !out.lost && out.next_ms <= warnBefore(out.stage_ms);
  return out;
}

/** How long before the end of a stage of `stage_ms` the clock warns: a third of it, at most a minute. */
export function warnBefore(stage_ms) {
  return Math.min(60000, (stage_ms || 0) / 3);
}

/**
 * Periods of `period_ms` after the main time; a move within a period keeps it, the last one
 * may be used to its very end (crates/clock: `periods_consumed`, "若干次秒限屆滿" loses).
 */
function byoYomi(c, k, x) {
  const p = k.period_ms;
  let overflow, periods;
  if (!c.in_overtime) {
    if (x < c.main_ms) {
      return { main_ms: c.main_ms - x, periods_or_stones: c.periods_or_stones, in_overtime: false, next_ms: c.main_ms - x, stage_ms: k.main_ms, stage: "main" };
    }
    overflow = x - c.main_ms;
    periods = c.periods_or_stones;
  } else {
    // The state showed `main_ms` left in its period: `p − main_ms` of it used.
    overflow = p - c.main_ms + x;
    periods = c.periods_or_stones;
  }
  const consumed = overflow <= 0 ? 0 : Math.floor((overflow - 1) / p);
  if (consumed >= periods) {
    return { main_ms: 0, periods_or_stones: 0, in_overtime: true, next_ms: -1, stage_ms: p, stage: "lost", lost: true };
  }
  const left = p - (overflow - consumed * p);
  const n = periods - consumed;
  return { main_ms: left, periods_or_stones: n, in_overtime: true, next_ms: left, stage_ms: p, stage: `period-${n}` };
}

/** `stones` moves in each period after the main time; the stones left do not change while thinking. */
function canadian(c, k, x) {
  if (!c.in_overtime) {
    if (x < c.main_ms) {
      return { main_ms: c.main_ms - x, periods_or_stones: c.periods_or_stones, in_overtime: false, next_ms: c.main_ms - x, stage_ms: k.main_ms, stage: "main" };
    }
    const left = k.period_ms - (x - c.main_ms);
    return { main_ms: left, periods_or_stones: k.stones, in_overtime: true, next_ms: left, stage_ms: k.period_ms, stage: "period" };
  }
  const left = c.main_ms - x;
  return { main_ms: left, periods_or_stones: c.periods_or_stones, in_overtime: true, next_ms: left, stage_ms: k.period_ms, stage: `period-${c.periods_or_stones}` };
}

/**
 * Ing's penalty-point overtime (第七條): with `e` the time used beyond the basic time `B`,
 * 2 points once the basic time is used up, 4 when `e > B/6`, 6 when `e > 2B/6`, the loss when
 * `e > 3B/6` (crates/clock `pp_status`, compared as `6e > k·B`).
 */
function penaltyPoints(c, k, x) {
  const B = k.main_ms;
  let e;
  if (!c.in_overtime) {
    if (x < c.main_ms) {
      return { main_ms: c.main_ms - x, periods_or_stones: 0, in_overtime: false, penalty_points: 0, next_ms: c.main_ms - x, stage_ms: B, stage: "basic" };
    }
    e = x - c.main_ms;
  } else {
    // In overtime the state gives the time left before the loss, at `B + B/2` used.
    e = B / 2 - c.main_ms + x;
  }
  const left = B / 2 - e;
  if (6 * e > 3 * B) {
    return { main_ms: 0, periods_or_stones: 0, in_overtime: true, penalty_points: 6, next_ms: -1, stage_ms: B / 6, stage: "lost", lost: true };
  }
  const step = 6 * e > 2 * B ? 3 : 6 * e > B ? 2 : 1; // the sixth of B being used
  const points = 2 * step;
  return {
    main_ms: left, periods_or_stones: 0, in_overtime: true,
    penalty_points: Math.max(points, c.penalty_points || 0),
    next_ms: (step * B) / 6 - e, stage_ms: B / 6, stage: `pp-${points}`,
  };
}

/** `m:ss` or `h:mm:ss`; a running clock shows the seconds begun (as a clock's face does). */
export function fmtTime(ms) {
  if (ms === null || ms === undefined) return "—";
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  // A correspondence clock holds days: `2d 23:59:59`, not `71:59:59`.
  if (hh >= 24) return `${Math.floor(hh / 24)}d ${two(hh % 24)}:${two(mm)}:${two(ss)}`;
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/** A duration in words' units: `3d`, `3h`, `30m`, `1h30m`, `30s`, `1.5s`. */
export function fmtSpan(ms) {
  if (!ms) return "0s";
  const d = Math.floor(ms / 86400000);
  const h = Math.floor((ms % 86400000) / 3600000), m = Math.floor((ms % 3600000) / 60000), s = (ms % 60000) / 1000;
  return `${d ? `${d}d` : ""}${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s ? `${Math.round(s * 1000) / 1000}s` : ""}`;
}

/** Milliseconds of `3d`, `1h30m`, `90s`, `500ms` or a bare number of seconds (the clock crate's text), or null. */
export function parseSpan(text) {
  const s = (text || "").trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const unit = { d: 86400000, h: 3600000, m: 60000, s: 1000, ms: 1, us: 0.001, ns: 0.000001 };
  let total = 0, rest = s;
  if (!rest) return null;
  while (rest) {
    const m = /^(\d+)(ms|us|ns|d|h|m|s)/.exec(rest);
    if (!m) return null;
    total += Number(m[1]) * unit[m[2]];
    rest = rest.slice(m[0].length);
  }
  return total;
}

/**
 * A time control's parameters (as the server's clocks carry them) from its text form
 * (`ing-pp:3h`, `byoyomi:30m+5x30s`, `canadian:20m+25/5m`, `fischer:10m+10s[max 20m]`…), to
 * say it in words where only the text is given (the lobby's challenges); null if unreadable.
 */
export function parseControl(text) {
  const t = (text || "").trim().toLowerCase();
  if (t === "none" || t === "untimed") return { kind: "none" };
  const i = t.indexOf(":");
  if (i < 0) return null;
  const kind = { absolute: "absolute", "sudden-death": "absolute", byoyomi: "byoyomi", japanese: "byoyomi", "byo-yomi": "byoyomi",
    canadian: "canadian", fischer: "fischer", "ing-pp": "ing-pp", pp: "ing-pp", "ing-rs": "ing-rs", rs: "ing-rs" }[t.slice(0, i)];
  const body = t.slice(i + 1);
  let m;
  if (kind === "absolute" || kind === "ing-pp") {
    const main = parseSpan(body);
    return main === null ? null : { kind, main_ms: main };
  }
  if ((kind === "byoyomi" || kind === "ing-rs") && (m = /^([^+]+)\+(\d+)x(.+)$/.exec(body))) {
    const main = parseSpan(m[1]), period = parseSpan(m[3]);
    return main === null || period === null ? null : { kind, main_ms: main, periods: Number(m[2]), period_ms: period };
  }
  if (kind === "canadian" && (m = /^([^+]+)\+(\d+)\/(.+)$/.exec(body))) {
    const main = parseSpan(m[1]), period = parseSpan(m[3]);
    return main === null || period === null ? null : { kind, main_ms: main, stones: Number(m[2]), period_ms: period };
  }
  if (kind === "fischer" && (m = /^([^+]+)\+([^[]+)(?:\[max\s*(.+)\])?$/.exec(body))) {
    const main = parseSpan(m[1]), inc = parseSpan(m[2]), max = m[3] ? parseSpan(m[3]) : null;
    return main === null || inc === null ? null : { kind, main_ms: main, increment_ms: inc, max_ms: max };
  }
  return null;
}

/**
 * A time control in words, in the page's language (`tf`, the i18n module's template function):
 * the text the lobby and the game page show beside the compact form.
 */
export function describeControl(k, tf) {
  if (!k || k.kind === "none") return tf("tc_none", {});
  const main = fmtSpan(k.main_ms);
  switch (k.kind) {
    case "absolute": return tf("tc_absolute", { main });
    case "byoyomi": return tf("tc_byoyomi", { main, n: k.periods, p: fmtSpan(k.period_ms) });
    case "ing-rs": return tf("tc_ing_rs", { main, n: k.periods, p: fmtSpan(k.period_ms) });
    case "canadian": return tf("tc_canadian", { main, n: k.stones, p: fmtSpan(k.period_ms) });
    case "fischer": return tf(k.max_ms ? "tc_fischer_max" : "tc_fischer", { main, inc: fmtSpan(k.increment_ms), max: fmtSpan(k.max_ms) });
    case "ing-pp": return tf("tc_ing_pp", { main, step: fmtSpan(Math.floor(k.main_ms / 6)), limit: fmtSpan(Math.floor(k.main_ms / 2)) });
    default: return "";
  }
}

// ---------------------------------------------------------------- warnings

let audio = null;
/** A short beep (the player switched the sound on, which is also the gesture audio needs). */
export function beep(high) {
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = high ? 1320 : 880;
    g.gain.value = 0.15;
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.12);
  } catch { /* no audio here */ }
}

/** Whether the player allowed the clock's warning sound (remembered in this browser). */
export function soundOn() { return localStorage.getItem("ingo-clock-sound") === "1"; }
export function setSound(on) {
  localStorage.setItem("ingo-clock-sound", on ? "1" : "0");
  if (on) beep(false); // the gesture that lets the page play sound later, and a sample
}

/** A call for attention (a challenge accepted, your turn, your clock low): two notes, rising. */
export function chime() {
  try {
    audio = audio || new AudioContext();
    const at = audio.currentTime;
    for (const [i, f] of [660, 990].entries()) {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = f;
      g.gain.value = 0.12;
      o.connect(g).connect(audio.destination);
      o.start(at + i * 0.14);
      o.stop(at + i * 0.14 + 0.12);
    }
  } catch { /* no audio here */ }
}

/** A stone put on the board: a short click of noise. */
export function stoneClick() {
  try {
    audio = audio || new AudioContext();
    const n = Math.floor(audio.sampleRate * 0.03);
    const buf = audio.createBuffer(1, n, audio.sampleRate);
    const d = buf.getChannelData(0);
    for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / n, 4);
    const src = audio.createBufferSource(), g = audio.createGain();
    src.buffer = buf;
    g.gain.value = 0.5;
    src.connect(g).connect(audio.destination);
    src.start();
  } catch { /* no audio here */ }
}
