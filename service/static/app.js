// The Rulings page: a thin client of the /v1 JSON API (no framework, no build step).
// Every string from the API reaches the page through el() / textContent, never innerHTML.

const $ = (selector) => document.querySelector(selector);

// ---- DOM helpers ---------------------------------------------------------------------------

/** Create an element: el("a", {href: "/x", class: "c"}, "text", childNode). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** The options of a <select> as {value: label} (game and language names come from the page). */
function optionNames(select) {
  return Object.fromEntries([...select.options].filter((o) => o.value).map((o) => [o.value, o.text]));
}

const GAMES = optionNames($("#game"));
const LANGS = optionNames($("#lang"));
const seq = new WeakMap();

// ---- API -----------------------------------------------------------------------------------

/** GET (no body) or POST JSON; resolves to the JSON, rejects with the API's error message. */
async function api(path, body) {
  const init = { headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Error("The server cannot be reached. Check the connection and try again.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.error?.message || `The server answered ${response.status}.`);
  return data;
}

/** A query string without the empty values. */
function query(params) {
  const clean = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return new URLSearchParams(clean).toString();
}

/** Show a loading line in `target`, then render(fetcher()) — only the latest call wins. */
async function load(target, message, fetcher, render) {
  const n = (seq.get(target) || 0) + 1;
  seq.set(target, n);
  target.setAttribute("aria-busy", "true");
  target.replaceChildren(el("p", { class: "loading" }, message));
  try {
    const data = await fetcher();
    if (seq.get(target) === n) target.replaceChildren(render(data));
  } catch (error) {
    if (seq.get(target) === n) target.replaceChildren(el("p", { class: "error", role: "alert" }, error.message));
  } finally {
    if (seq.get(target) === n) target.setAttribute("aria-busy", "false");
  }
}

// ---- rulings ---------------------------------------------------------------------------------

// Labels (title, kind, citation, language and game names) come ready-made with each ruling
// from the API (service/presentation.py): the page only renders them.
const kindLabel = (kind) => kind.charAt(0).toUpperCase() + kind.slice(1);
const kindClass = (kind) => "badge kind-" + kind.replace(/\s+/g, "-");
const langName = (code) => LANGS[code] || code;

function permalink(ruling) {
  const lang = ruling.translation ? `?lang=${encodeURIComponent(ruling.translation.lang)}` : "";
  return `/r/${encodeURIComponent(ruling.id)}${lang}`;
}

function badge(r) {
  return el("span", { class: kindClass(r.kind) }, r.kind_label);
}

function translationBlock(tr) {
  return el("div", { class: "translation", lang: tr.lang },
    el("p", { class: "label" }, `Translation (${tr.language_name}): ${tr.label}`),
    tr.title && el("p", { class: "tr-title" }, tr.title),
    tr.context && el("p", { class: "context" }, tr.context),
    el("p", {}, tr.text));
}

function cardChips(cards) {
  if (!cards.length) return null;
  return el("p", { class: "cards" }, el("span", { class: "label" }, "About:"), " ",
    cards.map((c) => el("button", {
      type: "button", class: "chip", title: `Find every ruling about ${c.label}`,
      onclick: () => findCard(c.label, { scroll: true }),
    }, c.label)));
}

/** One ruling as a card: badge, title, original, translation, cards, citation. */
function renderRuling(r, heading = "h3") {
  const title = r.display_title;
  return el("article", { class: "ruling", "data-id": r.id },
    el("div", { class: "meta" }, badge(r), " ",
      el("span", { class: "game" }, r.game_name), " ",
      el("span", { class: "lang", title: "language of the original" }, r.lang.toUpperCase()), " ",
      el("span", { class: "rid" }, r.id)),
    el(heading, { class: "title" }, el("a", { href: permalink(r) }, title)),
    r.context && el("p", { class: "context" },
      el("strong", {}, `${kindLabel((r.context_label || "context").toLowerCase())}:`), " ", r.context),
    el("blockquote", { class: "original", lang: r.lang },
      el("p", { class: "label" }, `Original (${r.language_name})`), el("p", {}, r.text)),
    r.translation && translationBlock(r.translation),
    cardChips(r.cards),
    el("footer", { class: "citation" }, el("span", { class: "label" }, "Source:"), " ", r.citation.label));
}

/** A line linking to a ruling's permalink (related / nearest rulings). */
function rulingLink(r) {
  const title = r.translation?.title || r.title || snippet(r.translation?.text || r.text);
  return el("li", {}, badge(r), " ", el("a", { href: permalink(r) }, title), " ",
    el("span", { class: "muted" }, `${r.id} · ${r.citation.label}`));
}

const snippet = (text, n = 90) => (text.length > n ? text.slice(0, n - 1).trimEnd() + "…" : text);

function renderAnswer(res) {
  const lang = `language: ${langName(res.lang)}`;
  if (res.declined) {
    return el("div", { class: "declined" },
      el("h2", {}, "No ruling found"),
      el("p", {}, "No ruling in the archive answers this question, and nothing is made up. ",
        "Try rephrasing it, or choose the game."),
      res.reason && el("p", { class: "muted" }, `Why: ${res.reason}.`),
      res.matches.length > 0 && el("h3", {}, "Nearest rulings"),
      res.matches.length > 0 && el("ul", { class: "related" }, res.matches.map(rulingLink)),
      el("p", { class: "muted" }, lang));
  }
  const others = res.matches.slice(1);
  return el("div", { class: "answered" },
    el("p", { class: "status" }, `Best ruling for “${res.question}” · ${lang} · ${Math.round(res.took_ms)} ms`),
    renderRuling(res.answer, "h2"),
    others.length > 0 && el("section", { class: "more", "aria-label": "Related rulings" },
      el("h3", {}, "Related rulings"), el("ul", { class: "related" }, others.map(rulingLink))));
}

// ---- ask -------------------------------------------------------------------------------------

/** Put the current search in the address bar (push a new entry unless it is the same). */
function updateUrl(params) {
  const url = `/?${query(params)}`;
  if (location.pathname + location.search === url) return;
  history.pushState(params, "", url);
}

function ask({ q, game = "", lang = "" }, { push = true } = {}) {
  $("#q").value = q;
  $("#game").value = game in GAMES ? game : "";
  $("#lang").value = lang in LANGS ? lang : "";
  if (push) updateUrl({ q, game, lang });
  return load($("#answer"), "Searching the archive…",
    () => api(`/v1/ask?${query({ q, game: $("#game").value, lang: $("#lang").value, k: 5 })}`), renderAnswer);
}

// ---- errata by card ----------------------------------------------------------------------------

function renderErrata(res) {
  if (!res.results.length) return el("p", { class: "empty" }, "No ruling is about that card.");
  const count = res.total === 1 ? "1 ruling" : `${res.total} rulings`;
  return el("div", {}, el("p", { class: "status" }, count), res.results.map((r) => renderRuling(r, "h3")));
}

function findCard(card, { push = true, scroll = false } = {}) {
  $("#card").value = card;
  if (push) updateUrl({ card });
  if (scroll) $("#errata-h").scrollIntoView({ behavior: "smooth" });
  return load($("#errata"), "Looking up the card…",
    () => api(`/v1/rulings?${query({ card, lang: $("#lang").value, limit: 20 })}`), renderErrata);
}

async function loadCardNames() {
  try {
    const { cards } = await api("/v1/cards");
    $("#card-names").replaceChildren(...cards.map((name) => el("option", { value: name })));
  } catch (error) {
    console.warn("card names unavailable:", error.message);
  }
}

// ---- checker ---------------------------------------------------------------------------------

const formatItem = (v) => (typeof v === "object" && v ? JSON.stringify(v) : String(v));
const formatValue = (v) => (Array.isArray(v) ? v.map(formatItem).join(", ") : formatItem(v));

function renderSteps(steps) {
  return el("ol", { class: "steps" }, steps.map((s) => el("li", {},
    el("span", { class: "action" }, s.action), " → ", el("strong", {}, formatValue(s.value)), " ",
    s.rulings.length
      ? el("span", { class: "cites" }, "Rulings: ",
        s.rulings.map((id, i) => [i ? ", " : "", el("a", { href: `/r/${encodeURIComponent(id)}` }, id)]))
      : el("span", { class: "noruling" }, "no ruling in the archive"),
    s.note && el("p", { class: "note" }, s.note))));
}

function renderDamage(res) {
  const flags = [res.ward_removed && "Ward removed", res.brittle_removed && "Brittle removed",
    res.negated && "negated by losing a card"].filter(Boolean);
  return el("div", {},
    el("p", { class: "verdict" }, "Damage suffered: ", el("strong", { class: "damage" }, res.damage),
      ` (would suffer ${res.would_suffer})`, flags.length ? ` · ${flags.join(" · ")}` : ""),
    renderSteps(res.steps));
}

const intOrNull = (value) => (value === "" || value === null ? null : Number(value));

function damagePayload(form) {
  const data = new FormData(form);
  const payload = { game: data.get("game"), attack: intOrNull(data.get("attack")),
    shield: intOrNull(data.get("shield")) ?? 0, ward: form.ward.checked,
    brittle: form.brittle.checked, negate: form.negate.checked };
  const modifiers = String(data.get("modifiers") || "").split(",").map((m) => m.trim()).filter(Boolean);
  if (modifiers.length) payload.modifiers = modifiers;
  const hp = intOrNull(data.get("hp"));
  if (hp !== null) payload.hp = hp;
  return payload;
}

/** Ward and Brittle are Frosthaven conditions: disable them for Gloomhaven. */
function syncDamageGame() {
  const gloomhaven = $("#d-game").value === "gloomhaven";
  for (const box of [$("#d-ward"), $("#d-brittle")]) {
    box.disabled = gloomhaven;
    if (gloomhaven) box.checked = false;
  }
}

// ---- initiative list editor --------------------------------------------------------------------

let figureCount = 0;
const TYPES = ["character", "monster", "summon"];

function field(id, label, input, extra = "") {
  return el("div", { class: `field ${extra}` }, el("label", { for: id }, label), input);
}

/** Show only the inputs that apply to the figure's type. */
function syncFigure(row) {
  const type = row.querySelector("[name=type]").value;
  row.querySelector(".f-initiative").hidden = type === "summon";
  row.querySelector(".f-second").hidden = type !== "character";
  row.querySelector(".f-summoner").hidden = type !== "summon";
  row.querySelector(".f-fresh").hidden = type !== "summon";
}

function addFigure(fig = { name: "", type: "character" }) {
  const id = `fig-${++figureCount}`;
  const typeSelect = el("select", { id: `${id}-type`, name: "type" },
    TYPES.map((t) => el("option", { value: t, selected: t === fig.type }, kindLabel(t))));
  const row = el("li", { class: "figure" },
    field(`${id}-name`, "Name", el("input", { id: `${id}-name`, name: "name", value: fig.name ?? "", required: true, maxlength: 60 })),
    field(`${id}-type`, "Type", typeSelect),
    field(`${id}-init`, "Initiative", el("input", { id: `${id}-init`, name: "initiative", type: "number", min: 1, max: 99, value: fig.initiative ?? "" }), "f-initiative"),
    field(`${id}-second`, "Second card", el("input", { id: `${id}-second`, name: "second", type: "number", min: 1, max: 99, value: fig.second ?? "" }), "f-second"),
    field(`${id}-summoner`, "Summoner", el("input", { id: `${id}-summoner`, name: "summoner", value: fig.summoner ?? "" }), "f-summoner"),
    el("div", { class: "field f-fresh" }, el("label", {},
      el("input", { type: "checkbox", name: "fresh", checked: Boolean(fig.summoned_this_round) }), " Summoned this round")),
    el("button", { type: "button", class: "secondary remove", "aria-label": `Remove figure ${figureCount}`,
      onclick: () => { row.remove(); $("#add-figure").focus(); } }, "Remove"));
  typeSelect.addEventListener("change", () => syncFigure(row));
  $("#figures").append(row);
  syncFigure(row);
  return row;
}

function figurePayload(row) {
  const get = (name) => row.querySelector(`[name=${name}]`);
  const fig = { name: get("name").value.trim(), type: get("type").value };
  if (fig.type !== "summon") fig.initiative = intOrNull(get("initiative").value);
  const second = intOrNull(get("second").value);
  if (fig.type === "character" && second !== null) fig.second = second;
  if (fig.type === "summon") {
    fig.summoner = get("summoner").value.trim();
    fig.summoned_this_round = get("fresh").checked;
  }
  return fig;
}

function renderInitiative(res) {
  const groups = (title, list) => list.length > 0 && el("p", { class: "hint" }, title,
    list.map((g) => g.join(" = ")).join("; "));
  return el("div", {},
    el("p", { class: "verdict" }, "Acting order:"),
    el("ol", { class: "order" }, res.order.map((name) => el("li", {}, name))),
    groups("Tied, the players choose: ", res.ties),
    groups("Not settled by any ruling: ", res.unresolved),
    renderSteps(res.steps));
}

// ---- monster board (board.js, loaded with its content-hashed URL from the page) ----------------

async function loadBoard() {
  const section = $("#monster-board");
  if (!section) return;
  try {
    const { initBoard } = await import(section.dataset.script);
    initBoard({ el, api, load, renderSteps });
  } catch (error) {
    console.error("board editor unavailable:", error);
    section.append(el("p", { class: "error", role: "alert" }, "The board editor could not be loaded."));
  }
}

// ---- wiring ----------------------------------------------------------------------------------

function runFromUrl() {
  const params = new URLSearchParams(location.search);
  if (params.get("q")) ask({ q: params.get("q"), game: params.get("game") || "", lang: params.get("lang") || "" }, { push: false });
  if (params.get("card")) findCard(params.get("card"), { push: false });
}

function onSubmit(selector, handler) {
  $(selector).addEventListener("submit", (event) => {
    event.preventDefault();
    handler(event.currentTarget);
  });
}

function init() {
  onSubmit("#ask-form", () => {
    const q = $("#q").value.trim();
    if (q) ask({ q, game: $("#game").value, lang: $("#lang").value });
  });
  onSubmit("#errata-form", () => {
    const card = $("#card").value.trim();
    if (card) findCard(card);
  });
  onSubmit("#damage-form", (form) => load($("#damage-result"), "Computing…",
    () => api("/v1/check/damage", damagePayload(form)), renderDamage));
  onSubmit("#initiative-form", () => load($("#initiative-result"), "Computing…",
    () => api("/v1/check/initiative", { game: $("#i-game").value,
      figures: [...document.querySelectorAll("#figures .figure")].map(figurePayload) }), renderInitiative));
  $("#d-game").addEventListener("change", syncDamageGame);
  $("#add-figure").addEventListener("click", () => addFigure().querySelector("input").focus());
  [{ name: "Drifter", type: "character", initiative: 20, second: 45 },
    { name: "Banner Spear", type: "character", initiative: 20, second: 30 },
    { name: "Algox Archers", type: "monster", initiative: 20 },
    { name: "Banner", type: "summon", summoner: "Banner Spear" }].forEach(addFigure);
  window.addEventListener("popstate", runFromUrl);
  loadCardNames();
  loadBoard();
  runFromUrl();
}

init();
