// The board as SVG: lines, star points, A–T coordinates (no I), stones, the last move, move
// numbers, marks (dead stones, an illegal point), a hover preview and a keyboard cursor.
// It draws what the server says; it never decides whether a move is legal.

const NS = "http://www.w3.org/2000/svg";
export const LETTERS = "ABCDEFGHJKLMNOPQRST";

/** GTP name of (col, row), row 0 at the bottom. */
export function pointName(col, row) {
  return LETTERS[col] + (row + 1);
}

/** (col, row) of a GTP name, or null. */
export function parsePoint(name, size) {
  const m = /^([A-HJ-T])(\d{1,2})$/i.exec(name || "");
  if (!m) return null;
  const col = LETTERS.indexOf(m[1].toUpperCase());
  const row = Number(m[2]) - 1;
  return col < size && row >= 0 && row < size ? { col, row } : null;
}

function starPoints(size) {
  if (size < 9) return [];
  const e = size >= 13 ? 3 : 2;
  const lines = size % 2 === 1 ? [e, (size - 1) / 2, size - 1 - e] : [e, size - 1 - e];
  const pts = [];
  for (const c of lines) for (const r of lines) pts.push([c, r]);
  return size % 2 === 1 && size <= 13 ? pts.filter(([c, r]) => (c === r) || c + r === size - 1) : pts;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/**
 * A board in `container`. `opts.onPlay(name)` is called for a click, Enter or Space on a point;
 * `opts.preview()` answers "B", "W" or null: the colour of the hover stone, if any.
 */
export class BoardView {
  constructor(container, size, opts = {}) {
    this.size = size;
    this.opts = opts;
    this.rows = Array.from({ length: size }, () => ".".repeat(size));
    this.cursor = null;
    this.hover = null;
    const u = 10; // one line spacing in SVG units
    this.u = u;
    const full = (size + 1) * u;
    this.svg = el("svg", {
      viewBox: `0 0 ${full} ${full}`,
      // A large board's coordinates are drawn larger on a phone (style.css).
      class: size >= 15 ? "board large" : "board",
      role: "grid",
      tabindex: "0",
      "aria-label": opts.label || `${size}×${size} board`,
    });
    el("rect", { x: 0, y: 0, width: full, height: full, class: "wood" }, this.svg);
    const g = el("g", { class: "lines" }, this.svg);
    for (let i = 0; i < size; i++) {
      const p = this.xy(i, i);
      el("line", { x1: this.xy(0, 0).x, y1: p.y, x2: this.xy(size - 1, 0).x, y2: p.y }, g);
      el("line", { x1: p.x, y1: this.xy(0, 0).y, x2: p.x, y2: this.xy(0, size - 1).y }, g);
    }
    for (const [c, r] of starPoints(size)) {
      const p = this.xy(c, r);
      el("circle", { cx: p.x, cy: p.y, r: 0.9, class: "star" }, g);
    }
    const coords = el("g", { class: "coords" }, this.svg);
    for (let i = 0; i < size; i++) {
      const p = this.xy(i, i);
      for (const y of [u * 0.45, full - u * 0.2]) {
        el("text", { x: p.x, y, "text-anchor": "middle" }, coords).textContent = LETTERS[i];
      }
      for (const x of [u * 0.3, full - u * 0.3]) {
        el("text", { x, y: p.y + 1.2, "text-anchor": "middle" }, coords).textContent = String(i + 1);
      }
    }
    this.layer = el("g", { class: "stones" }, this.svg);
    // The owners of points (a count's area, an estimate), over the stones (a dead stone shows
    // whose area it becomes).
    this.areaLayer = el("g", { class: "area" }, this.svg);
    this.areaKey = "";
    this.points = new Map(); // name → { look, g }: the stones drawn, redrawn when they change
    this.top = el("g", { class: "marks" }, this.svg);
    this.svg.addEventListener("click", (e) => {
      const p = this.pointAt(e);
      if (p) this.activate(p, e.timeStamp);
    });
    this.svg.addEventListener("mousemove", (e) => {
      const p = this.pointAt(e);
      const name = p && pointName(p.col, p.row);
      if (name !== this.hover) {
        this.hover = name;
        this.drawMarks();
      }
    });
    this.svg.addEventListener("mouseleave", () => {
      this.hover = null;
      this.drawMarks();
    });
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.svg.addEventListener("focus", () => {
      if (!this.cursor) this.cursor = { col: (size - 1) >> 1, row: (size - 1) >> 1 };
      this.drawMarks();
    });
    this.svg.addEventListener("blur", () => this.drawMarks());
    container.appendChild(this.svg);
    this.state = { last: null, numbers: null, marks: {}, showNumbers: false };
  }

  xy(col, row) {
    return { x: (col + 1) * this.u, y: (this.size - row) * this.u };
  }

  pointAt(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const q = pt.matrixTransform(m.inverse());
    const col = Math.round(q.x / this.u - 1);
    const row = Math.round(this.size - q.y / this.u);
    return col >= 0 && col < this.size && row >= 0 && row < this.size ? { col, row } : null;
  }

  /** Plays point `p`; `at`: when the click or key press happened (`performance.now()` time). */
  activate(p, at) {
    this.cursor = p;
    if (this.opts.onPlay) this.opts.onPlay(pointName(p.col, p.row), at);
  }

  key(e) {
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (d) {
      const c = this.cursor || { col: 0, row: 0 };
      this.cursor = {
        col: Math.min(this.size - 1, Math.max(0, c.col + d[0])),
        row: Math.min(this.size - 1, Math.max(0, c.row + d[1])),
      };
      this.drawMarks();
      e.preventDefault();
    } else if ((e.key === "Enter" || e.key === " ") && this.cursor) {
      this.activate(this.cursor, e.timeStamp);
      e.preventDefault();
    }
  }

  /** The colour at a point: "X" black, "O" white, "." empty. */
  at(col, row) {
    return this.rows[this.size - 1 - row][col];
  }

  /**
   * Draws a position. `rows`: strings top row first ("X", "O", "."). `last`: GTP name of the
   * last move. `numbers`: Map name → move number. `marks`: { dead: Set, illegal: name,
   * owners: rows of the points' owners (shaded, see `drawArea`), checks: [{point, note, turns_winner}] (the
   * judgement's verdicts to check, ringed) }.
   * Only the points whose look changed are redrawn (a move touches one point and its captures).
   */
  draw(rows, { last = null, numbers = null, marks = {}, showNumbers = false } = {}) {
    this.rows = rows;
    this.state = { last, numbers, marks, showNumbers };
    const dead = marks.dead || new Set();
    const shown = new Set();
    for (let row = 0; row < this.size; row++) {
      for (let col = 0; col < this.size; col++) {
        const c = this.at(col, row);
        if (c === ".") continue;
        const name = pointName(col, row);
        const n = showNumbers && numbers ? numbers.get(name) : null;
        const look = `${c}${n ? ` ${n}` : ""}${name === last ? " last" : ""}${dead.has(name) ? " dead" : ""}`;
        shown.add(name);
        const old = this.points.get(name);
        if (old && old.look === look) continue;
        const g = this.stone(col, row, c, n, name === last, dead.has(name));
        if (old) old.g.replaceWith(g);
        else this.layer.appendChild(g);
        this.points.set(name, { look, g });
      }
    }
    for (const [name, p] of this.points) {
      if (shown.has(name)) continue;
      p.g.remove();
      this.points.delete(name);
    }
    this.drawArea(marks.owners || null, dead);
    this.drawMarks();
  }

  /**
   * Shades the points the server says a side owns (`owners`: rows from the top, "X" Black's,
   * "O" White's, "." shared) where no stone of the owner stands alive: empty points and the
   * stones marked dead. Drawn only; the owners are the server's.
   */
  drawArea(owners, dead) {
    const key = owners ? `${owners.join("/")}|${[...dead].sort().join(",")}|${this.rows.join("/")}` : "";
    if (key === this.areaKey) return;
    this.areaKey = key;
    this.areaLayer.replaceChildren();
    if (!owners || owners.length !== this.size) return;
    for (let row = 0; row < this.size; row++) {
      for (let col = 0; col < this.size; col++) {
        const o = owners[this.size - 1 - row][col];
        if (o !== "X" && o !== "O") continue;
        const name = pointName(col, row);
        const c = this.at(col, row);
        if (c !== "." && !dead.has(name)) continue;
        const p = this.xy(col, row);
        el("rect", { x: p.x - 2.4, y: p.y - 2.4, width: 4.8, height: 4.8, class: `territory ${o === "X" ? "black" : "white"}`, "data-owner": `${name}${o === "X" ? "B" : "W"}` }, this.areaLayer);
      }
    }
  }

  /** One stone: its circle, and its move number, last-move mark or dead cross. */
  stone(col, row, c, number, last, dead) {
    const name = pointName(col, row);
    const p = this.xy(col, row);
    const g = el("g", {});
    const stone = el("circle", {
      cx: p.x, cy: p.y, r: this.u * 0.47,
      class: `stone ${c === "X" ? "black" : "white"}${dead ? " dead" : ""}`,
      "data-point": name,
    }, g);
    stone.appendChild(document.createElementNS(NS, "title")).textContent = name;
    if (number) {
      el("text", {
        x: p.x, y: p.y + 1.6, "text-anchor": "middle",
        class: `num ${c === "X" ? "on-black" : "on-white"}${last ? " lastnum" : ""}`,
      }, g).textContent = String(number);
    } else if (last) {
      el("circle", { cx: p.x, cy: p.y, r: this.u * 0.2, class: `last ${c === "X" ? "on-black" : "on-white"}` }, g);
    }
    if (dead) el("path", { d: `M${p.x - 2.5} ${p.y - 2.5}l5 5m0 -5l-5 5`, class: "dead-x" }, g);
    return g;
  }

  drawMarks() {
    this.top.replaceChildren();
    const { marks } = this.state;
    // A move chosen but not yet confirmed (the confirm step of a touch screen).
    if (marks && marks.tentative) {
      const q = parsePoint(marks.tentative.point, this.size);
      if (q) {
        const p = this.xy(q.col, q.row);
        el("circle", { cx: p.x, cy: p.y, r: this.u * 0.47, class: `stone tentative ${marks.tentative.color === "B" ? "black" : "white"}`, "data-tentative": marks.tentative.point }, this.top);
      }
    }
    if (marks && marks.illegal) {
      const q = parsePoint(marks.illegal, this.size);
      if (q) {
        const p = this.xy(q.col, q.row);
        el("rect", { x: p.x - 4.5, y: p.y - 4.5, width: 9, height: 9, class: "illegal" }, this.top);
      }
    }
    // The end-of-game judgement's verdicts to check, as the count picture draws them: an amber
    // ring on the string's first stone and its note ("46%", "R"…) under the dead cross; a red
    // one where the winner turns on the verdict.
    for (const { point, note, turns_winner: turns } of (marks && marks.checks) || []) {
      const q = parsePoint(point, this.size);
      if (!q) continue;
      const p = this.xy(q.col, q.row);
      const on = this.at(q.col, q.row) === "X" ? "on-black" : "on-white";
      const g = el("g", { class: turns ? "check turns" : "check", "data-check": `${point} ${note}` }, this.top);
      el("circle", { cx: p.x, cy: p.y, r: this.u * 0.55, class: turns ? "check-ring turns" : "check-ring" }, g);
      el("text", { x: p.x, y: p.y + 4, "text-anchor": "middle", class: `check-note ${on}` }, g).textContent = note;
    }
    const color = this.opts.preview ? this.opts.preview() : null;
    const show = [];
    if (this.hover) show.push(parsePoint(this.hover, this.size));
    if (this.cursor && document.activeElement === this.svg) show.push(this.cursor);
    for (const q of show) {
      if (!q) continue;
      const p = this.xy(q.col, q.row);
      if (color && this.at(q.col, q.row) === ".") {
        el("circle", { cx: p.x, cy: p.y, r: this.u * 0.47, class: `stone preview ${color === "B" ? "black" : "white"}` }, this.top);
      }
      if (q === this.cursor) {
        el("rect", { x: p.x - 5, y: p.y - 5, width: 10, height: 10, class: "cursor" }, this.top);
      }
    }
  }

  /**
   * Consultation: the side's proposed moves as faint stones of `color` with their votes, in a
   * layer of their own (a redraw of the position leaves them). `list`: [{move, votes}].
   */
  setProposed(list, color) {
    if (!this.proposedLayer) {
      this.proposedLayer = el("g", { class: "proposed" }, this.svg);
      this.svg.insertBefore(this.proposedLayer, this.top);
    }
    this.proposedLayer.replaceChildren();
    for (const { move, votes } of list) {
      const q = parsePoint(move, this.size);
      if (!q) continue;
      const p = this.xy(q.col, q.row);
      el("circle", { cx: p.x, cy: p.y, r: this.u * 0.47, class: `proposal ${color === "B" ? "black" : "white"}`, "data-proposed": move }, this.proposedLayer);
      el("text", { x: p.x, y: p.y + 1.6, "text-anchor": "middle", class: `num ${color === "B" ? "on-black" : "on-white"}` }, this.proposedLayer).textContent = String(votes);
    }
  }

  /** The points of the string through `name` (connected stones of one colour). */
  string(name) {
    const q = parsePoint(name, this.size);
    if (!q) return [];
    const c = this.at(q.col, q.row);
    if (c === ".") return [];
    const seen = new Set([name]);
    const todo = [q];
    while (todo.length) {
      const { col, row } = todo.pop();
      for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const n = { col: col + dc, row: row + dr };
        if (n.col < 0 || n.row < 0 || n.col >= this.size || n.row >= this.size) continue;
        const nn = pointName(n.col, n.row);
        if (!seen.has(nn) && this.at(n.col, n.row) === c) {
          seen.add(nn);
          todo.push(n);
        }
      }
    }
    return [...seen];
  }
}

/** Move numbers of the stones on the board: Map name → number (the newest stone on a point). */
export function moveNumbers(moves) {
  const m = new Map();
  for (const mv of moves) {
    if (mv.move && mv.move !== "pass") m.set(mv.move.toUpperCase(), mv.number);
  }
  return m;
}

/**
 * The rows (strings, top row first) with `color`'s ("B" or "W") stone put on `move` and the
 * stones the server says it removed (`removed`, point names) taken off. The rules are the
 * server's: this only draws what it decided. Null when `move` is not an empty point of the
 * board or a removed point is off it (then the caller asks the server for the whole state).
 */
export function placeMove(rows, size, move, color, removed) {
  if (rows.length !== size) return null;
  const grid = rows.map((r) => [...r]);
  if (move !== "pass") {
    const q = parsePoint(move, size);
    if (!q || grid[size - 1 - q.row][q.col] !== ".") return null;
    grid[size - 1 - q.row][q.col] = color === "B" ? "X" : "O";
  }
  for (const name of removed) {
    const p = parsePoint(name, size);
    if (!p) return null;
    grid[size - 1 - p.row][p.col] = ".";
  }
  return grid.map((r) => r.join(""));
}
