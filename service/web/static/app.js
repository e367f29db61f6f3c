// The Rulings page: a thin client of the /v1 JSON API (no framework, no build step).
// Every string from the API reaches the page through el() / textContent, never innerHTML.
// Every string of the page's own comes through t(): the server embeds the page language's
// catalogue (service/translations/*.po) as JSON in #ui-messages, with the labels of kinds,
// contexts, translations and decline reasons in that language (LABELS). Messages have no
// plural forms here: write them so that none is needed ("Rulings found: 3").

const $ = (selector) => document.querySelector(selector);
const UI = document.documentElement.lang || "en";
const { messages: MESSAGES = {}, labels: LABELS = {} } =
  JSON.parse(document.getElementById("ui-messages")?.textContent || "{}");

/** The message in the page's language, with %(name)s filled from `params`. */
function t(message, params = {}) {
  return (MESSAGES[message] || message).replace(/%\((\w+)\)[sd]/g, (all, name) =>
    (name in params ? String(params[name]) : all));
}

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
    throw new Error(t("The server cannot be reached. Check the connection and try again."));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.error?.message || t("The server answered %(status)s.", { status: response.status }));
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
// from the API (service/presentation.py): the page only renders them, those of a fixed
// vocabulary in the page's language (LABELS, made by presentation.py too).
const label = (group, key, fallback) => LABELS[group]?.[key] || fallback;
const kindClass = (kind) => "badge kind-" + kind.replace(/\s+/g, "-");
const langName = (code) => LANGS[code] || code;

function permalink(ruling) {
  const lang = ruling.translation ? `?lang=${encodeURIComponent(ruling.translation.lang)}` : "";
  return `/r/${encodeURIComponent(ruling.id)}${lang}`;
}

function badge(r) {
  return el("span", { class: kindClass(r.kind) }, label("kind", r.kind, r.kind_label));
}

function translationBlock(tr) {
  return el("div", { class: "translation", lang: tr.lang },
    el("p", { class: "label" }, t("Translation (%(language)s): %(label)s",
      { language: tr.language_name, label: label("translation", tr.edition_of ? "edition" : "ours", tr.label) })),
    tr.title && el("p", { class: "tr-title" }, tr.title),
    tr.context && el("p", { class: "context" }, tr.context),
    el("p", {}, tr.text));
}

function cardChips(cards) {
  if (!cards.length) return null;
  return el("p", { class: "cards" }, el("span", { class: "label" }, t("About:")), " ",
    cards.map((c) => el("button", {
      type: "button", class: "chip", title: t("Find every ruling about %(card)s", { card: c.label }),
      onclick: () => findCard(c.label, { scroll: true }),
    }, c.label)));
}

/** One ruling as a card: badge, title, original, translation, cards, citation. */
function renderRuling(r, heading = "h3") {
  const title = r.display_title;
  return el("article", { class: "ruling", "data-id": r.id },
    el("div", { class: "meta" }, badge(r), " ",
      el("span", { class: "game" }, r.game_name), " ",
      el("span", { class: "lang", title: t("language of the original") }, r.lang.toUpperCase()), " ",
      el("span", { class: "rid" }, r.id)),
    el(heading, { class: "title" }, el("a", { href: permalink(r) }, title)),
    r.context && el("p", { class: "context" },
      el("strong", {}, `${label("context", r.context_label || "CONTEXT", r.context_label_local)}:`), " ", r.context),
    el("blockquote", { class: "original", lang: r.lang },
      el("p", { class: "label" }, t("Original (%(language)s)", { language: r.language_name })), el("p", {}, r.text)),
    r.translation && translationBlock(r.translation),
    cardChips(r.cards),
    el("footer", { class: "citation" }, el("span", { class: "label" }, t("Source:")), " ",
      r.citation.label_local || r.citation.label));
}

/** A line linking to a ruling's permalink (related / nearest rulings). */
function rulingLink(r) {
  const title = r.translation?.title || r.title || snippet(r.translation?.text || r.text);
  return el("li", {}, badge(r), " ", el("a", { href: permalink(r) }, title), " ",
    el("span", { class: "muted" }, `${r.id} · ${r.citation.label_local || r.citation.label}`));
}

const snippet = (text, n = 90) => (text.length > n ? text.slice(0, n - 1).trimEnd() + "…" : text);

function renderAnswer(res) {
  const lang = t("language: %(language)s", { language: langName(res.lang) });
  const computed = res.computed ? renderComputed(res.computed) : null;  // the number first
  if (res.declined) {
    return el("div", { class: "declined" }, computed,
      el("h2", {}, t("No ruling found")),
      el("p", {}, t("No ruling in the archive answers this question, and nothing is made up."), " ",
        t("Try rephrasing it, or choose the game.")),
      res.reason && el("p", { class: "muted" }, t("Why: %(reason)s.", { reason: label("reason", res.reason, res.reason) })),
      res.matches.length > 0 && el("h3", {}, t("Nearest rulings")),
      res.matches.length > 0 && el("ul", { class: "related" }, res.matches.map(rulingLink)),
      el("p", { class: "muted" }, lang));
  }
  const others = res.matches.slice(1);
  return el("div", { class: "answered" }, computed,
    el("p", { class: "status" }, t("Best ruling for “%(question)s”", { question: res.question }),
      ` · ${lang} · ${Math.round(res.took_ms)} ms`),
    renderRuling(res.answer, "h2"),
    others.length > 0 && el("section", { class: "more", "aria-label": t("Related rulings") },
      el("h3", {}, t("Related rulings")), el("ul", { class: "related" }, others.map(rulingLink))));
}

// ---- ask -------------------------------------------------------------------------------------

/** Put the current search in the address bar (push a new entry unless it is the same); a
 * language chosen on the page (?ui=) stays, and the language links follow the search. */
function updateUrl(params) {
  const ui = new URLSearchParams(location.search).get("ui");
  const url = `/?${query({ ...params, ui })}`;
  if (location.pathname + location.search === url) return;
  history.pushState(params, "", url);
  syncLanguageLinks();
}

/** Point each language link at the current address in that language. */
function syncLanguageLinks() {
  for (const link of document.querySelectorAll("nav.languages a[data-ui]")) {
    const params = new URLSearchParams(location.search);
    params.set("ui", link.dataset.ui);
    link.href = `${location.pathname}?${params}`;
  }
}

function ask({ q, game = "", lang = "" }, { push = true } = {}) {
  $("#q").value = q;
  $("#game").value = game in GAMES ? game : "";
  $("#lang").value = lang in LANGS ? lang : "";
  if (push) updateUrl({ q, game, lang });
  return load($("#answer"), t("Searching the archive…"),
    () => api(`/v1/ask?${query({ q, game: $("#game").value, lang: $("#lang").value, k: 5 })}`), renderAnswer);
}

// ---- errata by card ----------------------------------------------------------------------------

function renderErrata(res) {
  if (!res.results.length) return el("p", { class: "empty" }, t("No ruling is about that card."));
  const count = t("Rulings found: %(count)s", { count: res.total });
  return el("div", {}, el("p", { class: "status" }, count), res.results.map((r) => renderRuling(r, "h3")));
}

function findCard(card, { push = true, scroll = false } = {}) {
  $("#card").value = card;
  if (push) updateUrl({ card });
  if (scroll) $("#errata-h").scrollIntoView({ behavior: "smooth" });
  // The rulings come translated into the chosen language, else into the page's.
  return load($("#errata"), t("Looking up the card…"),
    () => api(`/v1/rulings?${query({ card, lang: $("#lang").value || UI, limit: 20 })}`), renderErrata);
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
      ? el("span", { class: "cites" }, t("Rulings:"), " ",
        s.rulings.map((id, i) => [i ? ", " : "", el("a", { href: `/r/${encodeURIComponent(id)}` }, id)]))
      : el("span", { class: "noruling" }, t("no ruling in the archive")),
    s.note && el("p", { class: "note" }, s.note))));
}

// ---- calculators (calculators.js, loaded with its content-hashed URL, like the board) ----------

/** A computed answer's block (set by calculators.js; nothing while it is not loaded). */
let renderComputed = () => null;

async function loadCalculators() {
  const section = $("#calculators");
  try {
    const { initCalculators } = await import(section.dataset.script);
    renderComputed = initCalculators({ $, el, api, load, renderSteps, t, label, onSubmit });
  } catch (error) {
    console.error("calculators unavailable:", error);
    section.append(el("p", { class: "error", role: "alert" }, t("The calculators could not be loaded.")));
  }
}

// ---- monster board (board.js, loaded with its content-hashed URL from the page) ----------------

async function loadBoard() {
  const section = $("#monster-board");
  if (!section) return;
  try {
    const { initBoard } = await import(section.dataset.script);
    initBoard({ el, api, load, renderSteps, t });
  } catch (error) {
    console.error("board editor unavailable:", error);
    section.append(el("p", { class: "error", role: "alert" }, t("The board editor could not be loaded.")));
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

async function init() {
  onSubmit("#ask-form", () => {
    const q = $("#q").value.trim();
    if (q) ask({ q, game: $("#game").value, lang: $("#lang").value });
  });
  onSubmit("#errata-form", () => {
    const card = $("#card").value.trim();
    if (card) findCard(card);
  });
  window.addEventListener("popstate", () => { syncLanguageLinks(); runFromUrl(); });
  loadCardNames();
  loadBoard();
  await loadCalculators();  // before a question in the address is asked: its computed answer
  runFromUrl();
}

init();
