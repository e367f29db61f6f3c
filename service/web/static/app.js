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
  // The log counts the page's asks apart from other callers' (service/http/routes.py); the
  // page's language is the API's prior for the question's (a short question cannot show it).
  const init = { headers: { Accept: "application/json", "Accept-Language": UI, "X-Rulings-Client": "page" } };
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
  if (!response.ok) {
    const error = new Error(data?.error?.message || t("The server answered %(status)s.", { status: response.status }));
    error.status = response.status;
    throw error;
  }
  return data;
}

/** A check of the rules checker, its steps also said in the page's language (`*_local`). */
const checkApi = (path, body) => api(`${path}?${query({ lang: UI })}`, body);

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
// vocabulary in the page's language (LABELS, made by presentation.py too). A ruling's card is
// ruling.js's (loaded with its content-hashed URL, before any answer is rendered).
const label = (group, key, fallback) => LABELS[group]?.[key] || fallback;
const langName = (code) => LANGS[code] || code;
let R = null;  // ruling.js: renderRuling, badge, permalink, titleOf, titleLang, citationOf

async function loadRulings() {
  const { initRulings } = await import($("#answer").dataset.script);
  R = initRulings({ el, t, label, findCard });
}
const ready = loadRulings();

/** A line linking to a ruling's permalink (related / nearest rulings); with `askId` (a
 * decline's nearest ruling), a button to say that this ruling answers the question. */
function rulingLink(r, askId = null) {
  // Its title, else (a rulebook passage) its source and pages; its deciding sentence under it.
  const ev = r.evidence;
  const titled = Boolean(r.translation?.title || r.title);
  const [title, lang] = titled ? [r.translation?.title || r.title, R.titleLang(r)]
    : ev ? [R.titleOf(r), null] : [snippet(r.translation?.text || r.text), r.translation?.lang || r.lang];
  const source = titled ? ` · ${r.citation.source_local || r.citation.source}` : "";
  const id = askId ? nextId("near") : null;
  const line = [R.badge(r), " ", el("a", { href: R.permalink(r), id, lang }, title), " ",
    el("span", { class: "muted" }, `${r.id}${source}`),
    ev && el("span", { class: "evidence-snippet", lang: ev.lang }, snippet(ev.text, 160))];
  if (!askId) return el("li", {}, line);
  return el("li", { class: "pickable" }, el("span", {}, line), answersIt(askId, r.id, id));
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
      res.reason && el("p", { class: "muted" },
        t("Why: %(reason)s.", { reason: label("reason", res.reason, res.reason_local || res.reason) })),
      res.matches.length > 0 && el("h3", {}, t("Nearest rulings")),
      res.matches.length > 0 && el("ul", { class: "related" }, res.matches.map((r) => rulingLink(r, res.ask_id))),
      el("p", { class: "muted" }, lang));
  }
  const others = res.matches.slice(1);
  return el("div", { class: "answered" }, computed,
    el("p", { class: "status" }, t("Best ruling for “%(question)s”", { question: res.question }),
      ` · ${lang} · ${Math.round(res.took_ms)} ms`),
    R.renderRuling(res.answer, "h2"),
    helpfulBar(res.ask_id),
    others.length > 0 && el("section", { class: "more", "aria-label": t("Related rulings") },
      el("h3", {}, t("Related rulings")), el("ul", { class: "related" }, others.map((r) => rulingLink(r)))));
}

// ---- feedback: votes on an answer (POST /v1/feedback; none when the log is off: no ask_id) ----

let lastId = 0;
const nextId = (prefix) => `${prefix}-${++lastId}`;

/** "Did this answer it?" Yes / No; a "No" asks for an optional note before it is sent. */
function helpfulBar(askId) {
  if (!askId) return null;
  const id = nextId("fb");
  const bar = el("div", { class: "feedback", role: "group", "aria-labelledby": id },
    el("span", { id, class: "fb-q" }, t("Did this answer it?")));
  const actions = el("span", { class: "fb-actions" },
    el("button", { type: "button", class: "secondary", onclick: () => vote(bar, { ask_id: askId, helpful: true }, actions) }, t("Yes")),
    el("button", { type: "button", class: "secondary", onclick: () => noteForm(bar, actions, askId) }, t("No")));
  bar.append(actions);
  return bar;
}

function noteForm(bar, actions, askId) {
  const id = nextId("fb-note");
  const input = el("input", { id, type: "text", maxlength: 200, autocomplete: "off", enterkeyhint: "send" });
  const form = el("form", { class: "fb-note", onsubmit: (event) => {
    event.preventDefault();
    vote(bar, { ask_id: askId, helpful: false, note: input.value.trim() || undefined }, form);
  } },
  el("label", { for: id }, t("What was missing? (optional)")),
  el("span", { class: "searchrow" }, input, el("button", { type: "submit" }, t("Send"))));
  actions.replaceWith(form);
  input.focus();
}

/** "This one answers it", beside a decline's nearest ruling (described by its title). */
function answersIt(askId, ruling, titleId) {
  const box = el("span", { class: "fb-pick" });
  box.append(el("button", { type: "button", class: "secondary", "aria-describedby": titleId,
    onclick: () => vote(box, { ask_id: askId, helpful: true, ruling }) }, t("This one answers it")));
  return box;
}

/** Send a vote from the `controls` in `box`: then a thanks in `box`'s place (focused, so that
 * the keyboard stays there), or a short message and the controls back to try again. */
async function vote(box, body, controls = box) {
  const inputs = [...controls.querySelectorAll("button, input")];
  inputs.forEach((input) => { input.disabled = true; });
  box.querySelector(".fb-error")?.remove();
  try {
    await postVote(body);
    const thanks = el("span", { class: "thanks", role: "status", tabindex: "-1" }, t("Thanks!"));
    box.removeAttribute("role");
    box.removeAttribute("aria-labelledby");
    box.replaceChildren(thanks);
    thanks.focus();
  } catch (error) {
    console.warn("feedback not recorded:", error.message);
    inputs.forEach((input) => { input.disabled = false; });
    box.append(el("span", { class: "fb-error", role: "alert" }, t("Not sent. Try again.")));
  }
}

/** POST the vote; a 404 is tried again twice: the ask may still be on its way into the log
 * (another worker answered it, and writes its asks a moment later). */
async function postVote(body, waits = [1000, 2000]) {
  try {
    return await api("/v1/feedback", body);
  } catch (error) {
    if (error.status !== 404 || !waits.length) throw error;
    await new Promise((resolve) => setTimeout(resolve, waits[0]));
    return postVote(body, waits.slice(1));
  }
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
  const params = query({ q, game: $("#game").value, lang: $("#lang").value, k: 5 });
  return load($("#answer"), t("Searching the archive…"), () => ready.then(() => api(`/v1/ask?${params}`)), renderAnswer);
}

// ---- errata by card ----------------------------------------------------------------------------

function renderErrata(res) {
  if (!res.results.length) return el("p", { class: "empty" }, t("No ruling is about that card."));
  const count = t("Rulings found: %(count)s", { count: res.total });
  return el("div", {}, el("p", { class: "status" }, count), res.results.map((r) => R.renderRuling(r, "h3")));
}

function findCard(card, { push = true, scroll = false } = {}) {
  $("#card").value = card;
  if (push) updateUrl({ card });
  if (scroll) $("#errata-h").scrollIntoView({ behavior: "smooth" });
  // The rulings come translated into the chosen language, else into the page's.
  return load($("#errata"), t("Looking up the card…"),
    () => ready.then(() => api(`/v1/rulings?${query({ card, lang: $("#lang").value || UI, limit: 20 })}`)), renderErrata);
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

const formatItem = (v) => (typeof v === "boolean" ? (v ? t("Yes") : t("No"))
  : typeof v === "object" && v ? JSON.stringify(v) : String(v));
const formatValue = (v) => (Array.isArray(v) ? v.map(formatItem).join(", ") : formatItem(v));

function renderSteps(steps) {
  return el("ol", { class: "steps" }, steps.map((s) => el("li", {},
    el("span", { class: "action" }, s.action_local || s.action), " → ", el("strong", {}, formatValue(s.value)), " ",
    s.rulings.length
      ? el("span", { class: "cites" }, t("Rulings:"), " ",
        s.rulings.map((id, i) => [i ? ", " : "", el("a", { href: `/r/${encodeURIComponent(id)}` }, id)]))
      : el("span", { class: "noruling" }, t("no ruling in the archive")),
    (s.note_local || s.note) && el("p", { class: "note" }, s.note_local || s.note))));
}

// ---- calculators (calculators.js, loaded with its content-hashed URL, like the board) ----------

/** A computed answer's block (set by calculators.js; nothing while it is not loaded). */
let renderComputed = () => null;

async function loadCalculators() {
  const section = $("#calculators");
  try {
    const { initCalculators } = await import(section.dataset.script);
    renderComputed = initCalculators({ $, el, api: checkApi, load, renderSteps, t, label, onSubmit });
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
    initBoard({ el, api: checkApi, load, renderSteps, t });
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
  // Before a question in the address is asked: its computed answer, its ruling's card.
  await Promise.all([loadCalculators(), ready.catch((error) => console.error("rulings unavailable:", error))]);
  runFromUrl();
}

init();
