// A ruling on the page, read in the asker's language first: the sentence that decides the
// question (the API's `evidence`), then the whole ruling one tap away with that sentence marked,
// then the original, still the authority, directly under it (collapsed on a phone's width).
// Loaded by app.js (initRulings), which passes its DOM helpers; ruling texts reach the page as
// text nodes only (el(), never markup), and every label comes ready-made from the API
// (service/presentation.py: the *_local ones in the asker's language) or from t().

let el, t, label, findCard;

/** A phone's width: the original starts collapsed there (open on a wider screen). */
const PHONE = "(max-width: 599.98px)";
/** Fewer letters than this outside the deciding sentence ("(p. 38)"): the lead is the whole. */
const MINOR_REST = 12;

export function permalink(ruling) {
  const params = new URLSearchParams();
  if (ruling.translation) params.set("lang", ruling.translation.lang);
  const ui = new URLSearchParams(location.search).get("ui");
  if (ui) params.set("ui", ui);
  const search = params.toString();
  return `/r/${encodeURIComponent(ruling.id)}${search ? `?${search}` : ""}`;
}

const kindClass = (kind) => "badge kind-" + kind.replace(/\s+/g, "-");

export function badge(r) {
  return el("span", { class: kindClass(r.kind) }, label("kind", r.kind, r.kind_label_local || r.kind_label));
}

/** The title in the reader's language (a passage without one: its source and pages). */
export const titleOf = (r) => r.display_title_local || r.display_title;
/** The title's language: its translation's, the ruling's own, else the page's (a source). */
export const titleLang = (r) => (r.translation?.title ? r.translation.lang : r.title ? r.lang : null);
/** The citation line, the source's name in the reader's language too. */
export const citationOf = (r) => r.citation.line_local || r.citation.label_local || r.citation.label;

/** `text` cut at `spans` (code point offsets, as the API counts them): [piece, marked] pairs;
 * a span out of range or overlapping another is skipped. */
function pieces(text, spans = []) {
  const chars = Array.from(text);
  const out = [];
  let at = 0;
  for (const { start, end } of [...spans].sort((a, b) => a.start - b.start)) {
    if (start < at || end <= start || end > chars.length) continue;
    if (start > at) out.push([chars.slice(at, start).join(""), false]);
    out.push([chars.slice(start, end).join(""), true]);
    at = end;
  }
  if (at < chars.length) out.push([chars.slice(at).join(""), false]);
  return out;
}

/** `text` as text nodes, each of `spans` in a <mark>. */
export const marked = (text, spans) => pieces(text, spans).map(([piece, mark]) => (mark ? el("mark", {}, piece) : piece));

function contextLine(ruling, text, lang) {
  return text && el("p", { class: "context" },
    el("strong", {}, `${label("context", ruling.context_label || "CONTEXT", ruling.context_label_local)}:`), " ",
    el("span", { lang }, text));
}

/** The text the asker reads first: the translation into their language (or their edition),
 * else the original; its label; the deciding sentence; the whole text one tap away. */
function readFirst(r, ev) {
  const tr = r.translation;
  const shown = tr
    ? { lang: tr.lang, text: tr.text, context: tr.context, title: tr.title,
      label: t("Translation (%(language)s): %(label)s", { language: tr.language_name,
        label: label("translation", tr.edition_of ? "edition" : "ours", tr.label_local || tr.label) }) }
    : { lang: r.lang, text: r.text, context: r.context, label: t("Original (%(language)s)", { language: r.language_name }) };
  const spans = ev && ev.shown === (tr ? "translation" : "text") ? ev.spans : [];
  // The labels are the page's; the texts carry their own language (lang=). When the rest of
  // the text is next to nothing (a page reference), the lead is all of it, the sentence marked.
  const rest = pieces(shown.text, spans).filter(([, mark]) => !mark).map(([piece]) => piece).join("");
  const all = spans.length > 0 && !shown.context && (rest.match(/\p{L}/gu) || []).length < MINOR_REST;
  const lead = spans.length > 0 && el("p", { class: "lead", lang: shown.lang },
    all ? marked(shown.text, spans) : el("mark", {}, ev.text));
  const whole = [contextLine(r, shown.context, shown.lang),
    el("p", { class: "full", lang: shown.lang }, marked(shown.text, spans))];
  return el("section", { class: tr ? "first translation" : "first" },
    el("p", { class: "label" }, shown.label),
    lead,
    all ? null : lead
      ? el("details", { class: "whole" }, el("summary", {}, t("Show the whole ruling")), whole)
      : whole);
}

/** The original, the authority, under the asker's language: collapsed on a phone. */
function original(r) {
  return el("details", { class: "original", open: !matchMedia(PHONE).matches },
    el("summary", {}, t("Original (%(language)s)", { language: r.language_name })),
    r.title && el("p", { class: "tr-title", lang: r.lang }, r.title),
    contextLine(r, r.context, r.lang),
    el("p", { lang: r.lang }, r.text));
}

function cardChips(cards) {
  if (!cards.length) return null;
  return el("p", { class: "cards" }, el("span", { class: "label" }, t("About:")), " ",
    cards.map((c) => el("button", {
      type: "button", class: "chip", title: t("Find every ruling about %(card)s", { card: c.label }),
      onclick: () => findCard(c.label, { scroll: true }),
    }, c.label)));
}

/** One ruling as a card: badge, title, the asker's language first (the deciding sentence,
 * the whole text), the original under it, cards, citation. */
export function renderRuling(r, heading = "h3") {
  return el("article", { class: "ruling", "data-id": r.id },
    el("div", { class: "meta" }, badge(r), " ",
      el("span", { class: "game" }, r.game_name), " ",
      el("span", { class: "lang", title: t("language of the original") }, r.lang.toUpperCase()), " ",
      el("span", { class: "rid" }, r.id)),
    el(heading, { class: "title" }, el("a", { href: permalink(r), lang: titleLang(r) }, titleOf(r))),
    readFirst(r, r.evidence),
    r.translation && original(r),
    cardChips(r.cards),
    el("footer", { class: "citation" }, el("span", { class: "label" }, t("Source:")), " ", citationOf(r)));
}

/** Wire the helpers of app.js; returns what it renders rulings with. */
export function initRulings(helpers) {
  ({ el, t, label, findCard } = helpers);
  return { renderRuling, badge, permalink, titleOf, titleLang, citationOf };
}
