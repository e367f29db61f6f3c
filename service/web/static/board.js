// The monster board editor: build a room on a hex grid, ask POST /v1/check/monster where the
// monster goes, and draw the answer on the board. Flat-topped hexes in "odd-q" layout: odd
// columns sit half a hex lower. app.js imports this module and passes its DOM and API helpers
// and t() (the page's catalogue: every string of the editor's own is in the page's language);
// strings from the API reach the page as text only (el() / textContent), never as markup.
import { answerView, optionColour, optionLines } from "./board-answer.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SIZE = 20; // hex radius, in SVG units
const ROW = SIZE * Math.sqrt(3); // hex height
const LIMITS = { width: [2, 16], height: [2, 10] };
const TERRAIN = { wall: "walls", obstacle: "obstacles", trap: "traps", hazardous: "hazardous",
  difficult: "difficult", icy: "icy" };
const GLYPH = { obstacle: "O", trap: "T", hazardous: "H", difficult: "D", icy: "I" };
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const key = (c, r) => `${c},${r}`;
const hexOf = (k) => k.split(",").map(Number);
const clamp = (n, [lo, hi]) => Math.min(hi, Math.max(lo, Number.isFinite(n) ? Math.round(n) : lo));

/** Create an SVG element: svg("circle", {cx: 1}, child...). */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** Centre of hex (c, r) in SVG units. */
function centre(c, r) {
  return [SIZE * (1 + 1.5 * c), ROW * (r + 0.5 + (c & 1) / 2)];
}

/** The six corners of hex (c, r) as a polygon's points, optionally shrunk around its centre. */
function corners(c, r, scale = 1) {
  const [x, y] = centre(c, r);
  return [0, 1, 2, 3, 4, 5].map((i) => {
    const angle = (Math.PI / 3) * i;
    return `${(x + SIZE * scale * Math.cos(angle)).toFixed(2)},${(y + SIZE * scale * Math.sin(angle)).toFixed(2)}`;
  }).join(" ");
}

export function initBoard({ el, api, load, renderSteps, t = (m, p = {}) => m.replace(/%\((\w+)\)s/g, (a, k) => p[k]) }) {
  const $ = (selector) => document.querySelector(selector);
  const PIECES = { monster: t("monster"), enemy: t("enemy"), ally: t("ally"), wall: t("wall"), obstacle: t("obstacle"),
    trap: t("trap"), hazardous: t("hazardous"), difficult: t("difficult"), icy: t("icy") };
  const or = ` ${t("or")} `;
  const form = $("#board-form");
  const boardEl = $("#mb-board");
  const resultEl = $("#board-result");
  const state = {
    width: 10, height: 7,
    terrain: new Map(), // "c,r" -> "wall" | "obstacle" | "trap" | "hazardous" | "difficult" | "icy"
    figures: new Map(), // "c,r" -> {kind: "monster" | "enemy" | "ally", name?, initiative?}
    cursor: "0,0", // the hex that takes the Tab stop (roving tabindex)
    result: null, // the last answer, drawn on the board until the board changes
    selected: 0, // the option drawn in full when the players choose (index into result.options)
    version: 0, // bumped by every edit: an answer for an older board is not drawn
  };

  const figuresOf = (kind) => [...state.figures].filter(([, f]) => f.kind === kind);
  const selectedPiece = () => form.querySelector("input[name=piece]:checked")?.value || "monster";

  function nextName() {
    const used = new Set(figuresOf("enemy").map(([, f]) => f.name));
    const letter = [...LETTERS].find((l) => !used.has(l));
    if (letter) return letter;
    for (let n = 27; ; n += 1) if (!used.has(`E${n}`)) return `E${n}`;
  }

  /** Put `piece` on hex `k`; a wall removes the figure, a figure removes the wall. */
  function place(k, piece) {
    const current = state.figures.get(k);
    if (piece === "erase") {
      state.figures.delete(k);
      state.terrain.delete(k);
    } else if (piece === "wall") {
      state.figures.delete(k);
      state.terrain.set(k, "wall");
    } else if (piece in TERRAIN) {
      state.terrain.set(k, piece);
    } else if (current?.kind !== piece) {
      if (piece === "monster") figuresOf("monster").forEach(([other]) => state.figures.delete(other));
      if (state.terrain.get(k) === "wall") state.terrain.delete(k);
      state.figures.set(k, piece === "enemy" ? { kind: piece, name: nextName(), initiative: "" } : { kind: piece });
    }
    changed();
  }

  /** The board changed: the answer shown no longer applies. */
  function changed() {
    state.version += 1;
    state.result = null;
    resultEl.replaceChildren();
  }

  /** Per hex: is it a focus, the destination(s) of which options, is it attacked (by any
   * option, by the option shown), is it a hex the option shown moves toward. */
  function marks() {
    const out = new Map();
    const mark = (h) => {
      const k = key(...h);
      if (!out.has(k)) out.set(k, { focus: false, dest: [], attacked: false, chosen: false, hit: false, toward: false });
      return out.get(k);
    };
    if (!state.result) return out;
    state.result.focus.forEach((h) => { mark(h).focus = true; });
    state.result.options.forEach((o, i) => {
      mark(o.destination).dest.push(i + 1);
      o.attacks.forEach((h) => { mark(h).attacked = true; });
    });
    const shown = state.result.options[state.selected];
    if (shown) {
      mark(shown.destination).chosen = true;
      shown.attacks.forEach((h) => { mark(h).hit = true; });
      (shown.toward || []).forEach((h) => { mark(h).toward = true; });
    }
    return out;
  }

  const figureName = (fig) => (fig.kind === "enemy" ? t("enemy %(name)s", { name: fig.name }) : PIECES[fig.kind]);

  /** "hex 3,2: enemy A, trap, focus, attacked" — the hex's accessible name. */
  function describe(k, mark) {
    const fig = state.figures.get(k);
    const parts = [fig && figureName(fig), PIECES[state.terrain.get(k)]];
    if (mark?.focus) parts.push(t("focus"));
    if (mark?.dest.length) parts.push(t("destination %(n)s", { n: mark.dest.join(or) }));
    if (mark?.attacked) parts.push(t("attacked"));
    if (several() && mark?.chosen) parts.push(t("option %(n)s shown", { n: state.selected + 1 }));
    if (mark?.toward) parts.push(t("moved toward"));
    const what = parts.filter(Boolean).join(", ") || t("empty");
    return t("hex %(hex)s: %(what)s", { hex: k, what });
  }

  function hexNode(c, r, mark) {
    const k = key(c, r);
    const terrain = state.terrain.get(k);
    const fig = state.figures.get(k);
    const [x, y] = centre(c, r);
    const classes = ["hex", terrain && `t-${terrain}`, mark?.focus && "focus"].filter(Boolean).join(" ");
    const g = svg("g", { class: classes, "data-hex": k, tabindex: k === state.cursor ? 0 : -1,
      role: "button", "aria-label": describe(k, mark) }, svg("polygon", { class: "cell", points: corners(c, r) }));
    if (GLYPH[terrain]) g.append(svg("text", { class: "glyph", x, y: y - ROW * 0.3 }, GLYPH[terrain]));
    if (mark?.attacked) g.append(svg("polygon", { class: "target", points: corners(c, r, 0.78) }));
    if (mark?.hit && several()) {
      g.append(svg("polygon", { class: "target-shown", points: corners(c, r, 0.64), fill: "none",
        stroke: optionColour(state.selected), "stroke-width": 2.5, "pointer-events": "none" }));
    }
    if (mark?.toward) {
      g.append(svg("polygon", { class: "toward", points: corners(c, r, 0.3), fill: optionColour(state.selected),
        "pointer-events": "none" }));
    }
    if (fig) {
      const label = fig.kind === "enemy" ? fig.name : fig.kind === "monster" ? "M" : "a";
      g.append(svg("circle", { class: `fig ${fig.kind}`, cx: x, cy: y, r: SIZE * 0.48 }),
        svg("text", { class: "fig-label", x, y }, label));
    }
    if (mark?.dest.length) {
      g.append(svg("circle", { class: mark.chosen && several() ? "dest shown" : "dest", cx: x, cy: y, r: SIZE * 0.66 }));
      const [dx, dy] = fig ? [SIZE * 0.55, ROW * 0.32] : [0, 0]; // beside the figure, else inside the ring
      if (several()) g.append(svg("text", { class: "dest-label", x: x + dx, y: y + dy }, mark.dest.join("/")));
    }
    return g;
  }

  const hexElement = (k) => boardEl.querySelector(`[data-hex="${k}"]`);
  const several = () => (state.result?.options.length || 0) > 1;

  /** Redraw the board (and the enemy list), keeping the keyboard focus on the same hex. */
  function draw() {
    const { width: w, height: h } = state;
    const hadFocus = boardEl.contains(document.activeElement);
    const all = marks();
    const root = svg("svg", { class: "hexes", role: "group",
      "aria-label": t("Board, %(columns)s columns by %(rows)s rows", { columns: w, rows: h }),
      viewBox: `0 0 ${SIZE * (1.5 * w + 0.5)} ${(ROW * (h + 0.5)).toFixed(2)}` });
    for (let c = 0; c < w; c += 1) for (let r = 0; r < h; r += 1) root.append(hexNode(c, r, all.get(key(c, r))));
    if (state.result) {
      const [monster] = figuresOf("monster");
      root.append(optionLines({ svg, centre }, state.result.options, state.selected, monster && hexOf(monster[0])));
    }
    boardEl.replaceChildren(root);
    if (hadFocus) hexElement(state.cursor)?.focus();
    drawEnemies();
  }

  function drawEnemies() {
    const enemies = figuresOf("enemy");
    $("#mb-no-enemies").hidden = enemies.length > 0;
    $("#mb-enemies").replaceChildren(...enemies.map(([k, f]) => el("li", {},
      el("label", { for: `mb-init-${f.name}` }, `${t("Enemy %(name)s", { name: f.name })} `,
        el("span", { class: "muted" }, t("(hex %(hex)s) initiative", { hex: k }))),
      el("input", { id: `mb-init-${f.name}`, type: "number", min: 0, max: 99, required: true, inputmode: "numeric",
        value: f.initiative, oninput: (event) => { f.initiative = event.target.value; } }))));
  }

  /** Place the selected piece on hex `k` (click, tap, Enter or Space). */
  function act(k) {
    const piece = selectedPiece();
    state.cursor = k;
    place(k, piece);
    draw();
    const fig = state.figures.get(k);
    $("#mb-status").textContent = piece === "erase" ? t("Cleared hex %(hex)s.", { hex: k })
      : t("Placed %(piece)s on hex %(hex)s.", {
        piece: fig?.kind === "enemy" && piece === "enemy" ? figureName(fig) : PIECES[piece], hex: k });
  }

  /** Move the keyboard focus (and the Tab stop) to a neighbouring hex on screen. */
  function moveCursor(k, [dc, dr]) {
    const [c, r] = hexOf(k);
    const next = key(clamp(c + dc, [0, state.width - 1]), clamp(r + dr, [0, state.height - 1]));
    hexElement(state.cursor)?.setAttribute("tabindex", "-1");
    state.cursor = next;
    const node = hexElement(next);
    node.setAttribute("tabindex", "0");
    node.focus();
  }

  function resize() {
    for (const side of ["width", "height"]) {
      const input = $(`#mb-${side}`);
      state[side] = clamp(Number(input.value), LIMITS[side]);
      input.value = state[side];
    }
    for (const map of [state.terrain, state.figures]) {
      for (const k of [...map.keys()]) {
        const [c, r] = hexOf(k);
        if (c >= state.width || r >= state.height) map.delete(k);
      }
    }
    const [c, r] = hexOf(state.cursor);
    state.cursor = key(Math.min(c, state.width - 1), Math.min(r, state.height - 1));
    changed();
    draw();
  }

  function payload() {
    const [monster] = figuresOf("monster");
    if (!monster) throw new Error(t("Place the monster on the board first."));
    const int = (name) => (form[name].value === "" ? null : Number(form[name].value));
    const map = { width: state.width, height: state.height };
    for (const [piece, field] of Object.entries(TERRAIN)) {
      map[field] = [...state.terrain].filter(([, t]) => t === piece).map(([k]) => hexOf(k));
    }
    return {
      game: form.game.value, map,
      monster: { hex: hexOf(monster[0]), move: int("move"), range: int("range"), targets: int("targets"),
        attack: form.attack.checked, jump: form.jump.checked, flying: form.flying.checked,
        teleport: form.teleport.checked, muddled: form.muddled.checked },
      allies: figuresOf("ally").map(([k]) => hexOf(k)),
      enemies: figuresOf("enemy").map(([k, f]) => ({ hex: hexOf(k), name: f.name,
        initiative: f.initiative === "" ? null : Number(f.initiative) })),
    };
  }

  function renderResult(res, version) {
    if (version !== state.version) return el("p", { class: "hint" }, t("The board changed: press Solve again."));
    state.result = res;
    state.selected = 0;
    draw();
    return answerView({ el, renderSteps, t }, res, (i) => { state.selected = i; draw(); });
  }

  boardEl.addEventListener("click", (event) => {
    const node = event.target.closest("[data-hex]");
    if (node) act(node.dataset.hex);
  });
  boardEl.addEventListener("keydown", (event) => {
    const node = event.target.closest("[data-hex]");
    if (!node) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      act(node.dataset.hex);
    } else if (MOVES[event.key]) {
      event.preventDefault();
      moveCursor(node.dataset.hex, MOVES[event.key]);
    }
  });
  $("#mb-width").addEventListener("change", resize);
  $("#mb-height").addEventListener("change", resize);
  $("#mb-clear").addEventListener("click", () => {
    state.terrain.clear();
    state.figures.clear();
    changed();
    draw();
    $("#mb-status").textContent = t("The board is empty.");
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const version = state.version;
    load(resultEl, t("Solving…"), () => api("/v1/check/monster", payload()), (res) => renderResult(res, version));
  });
  resize();
}
