// The rules checker's calculators (damage, initiative, exhaustion, advantage) and the computed
// answer of a question (its sentence, its cited steps, the calculator prefilled from what the
// question gave). Loaded by app.js, which passes its DOM and API helpers (initCalculators).

let $, el, api, load, renderSteps, t, label;

function renderDamage(res) {
  const flags = [res.ward_removed && t("Ward removed"), res.brittle_removed && t("Brittle removed"),
    res.negated && t("negated by losing a card")].filter(Boolean);
  return el("div", {},
    el("p", { class: "verdict" }, t("Damage suffered:"), " ", el("strong", { class: "damage" }, res.damage),
      " ", t("(would suffer %(damage)s)", { damage: res.would_suffer }), flags.length ? ` · ${flags.join(" · ")}` : ""),
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
let TYPES = {};  // the figure types in the page's language (set by initCalculators)

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
    Object.entries(TYPES).map(([type, label]) => el("option", { value: type, selected: type === fig.type }, label)));
  const row = el("li", { class: "figure" },
    field(`${id}-name`, t("Name"), el("input", { id: `${id}-name`, name: "name", value: fig.name ?? "", required: true, maxlength: 60 })),
    field(`${id}-type`, t("Type"), typeSelect),
    field(`${id}-init`, t("Initiative"), el("input", { id: `${id}-init`, name: "initiative", type: "number", min: 1, max: 99, value: fig.initiative ?? "" }), "f-initiative"),
    field(`${id}-second`, t("Second card"), el("input", { id: `${id}-second`, name: "second", type: "number", min: 1, max: 99, value: fig.second ?? "" }), "f-second"),
    field(`${id}-summoner`, t("Summoner"), el("input", { id: `${id}-summoner`, name: "summoner", value: fig.summoner ?? "" }), "f-summoner"),
    el("div", { class: "field f-fresh" }, el("label", {},
      el("input", { type: "checkbox", name: "fresh", checked: Boolean(fig.summoned_this_round) }), " ", t("Summoned this round"))),
    el("button", { type: "button", class: "secondary remove", "aria-label": t("Remove figure %(n)s", { n: figureCount }),
      onclick: () => { row.remove(); $("#add-figure").focus(); } }, t("Remove")));
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
    el("p", { class: "verdict" }, t("Acting order:")),
    el("ol", { class: "order" }, res.order.map((name) => el("li", {}, name))),
    groups(`${t("Tied, the players choose:")} `, res.ties),
    groups(`${t("Not settled by any ruling:")} `, res.unresolved),
    renderSteps(res.steps));
}

function renderExhaustion(res) {
  const can = [res.can_play && t("can play two cards"), res.can_short_rest && t("can short rest"),
    res.can_long_rest && t("can long rest")].filter(Boolean);
  return el("div", {},
    el("p", { class: "verdict" }, el("strong", {}, res.exhausted ? t("Exhausted.") : t("Not exhausted.")),
      can.length ? ` ${can.join(" · ")}` : ""),
    renderSteps(res.steps));
}

function renderAdvantage(res) {
  const chosen = res.chosen === "ambiguous" ? t("Ambiguous: the archive does not say which card is used.")
    : t("Card %(n)s is used.", { n: res.chosen + 1 });
  return el("div", {}, el("p", { class: "verdict" }, el("strong", {}, chosen)), renderSteps(res.steps));
}

const splitList = (text) => String(text || "").split(",").map((x) => x.trim()).filter(Boolean);

function exhaustionPayload(form) {
  const data = new FormData(form);
  const payload = { game: data.get("game"), hand: intOrNull(data.get("hand")),
    discard: intOrNull(data.get("discard")), active_bonuses: intOrNull(data.get("active_bonuses")) ?? 0 };
  const hp = intOrNull(data.get("hp"));
  if (hp !== null) payload.hp = hp;
  return payload;
}

function advantagePayload(form) {
  const data = new FormData(form);
  const payload = { game: data.get("game"), mode: data.get("mode"),
    cards: [1, 2].map((n) => ({ value: String(data.get(`card${n}`) || "").trim(), effects: splitList(data.get(`effects${n}`)) })) };
  const attack = intOrNull(data.get("attack"));
  if (attack !== null) payload.attack = attack;
  return payload;
}

/** Set a form control's value when the read request has one (missing fields stay as typed). */
function setValue(selector, value) {
  if (value !== undefined && value !== null) $(selector).value = String(value);
}

/** The calculators, each filled from a computed answer's `input` (what the question gave). */
const PREFILL = {
  damage(input) {
    setValue("#d-game", input.game);
    syncDamageGame();
    $("#d-attack").value = input.attack ?? "";
    $("#d-mods").value = (input.modifiers || []).join(", ");
    setValue("#d-shield", input.shield);
    $("#d-hp").value = input.hp ?? "";
    for (const flag of ["ward", "brittle", "negate"]) {
      const box = $(`#d-${flag}`);
      if (!box.disabled) box.checked = Boolean(input[flag]);
    }
    return $("#damage-form");
  },
  initiative(input) {
    setValue("#i-game", input.game);
    $("#figures").replaceChildren();
    (input.figures || []).forEach(addFigure);
    return $("#initiative-form");
  },
  exhaustion(input) {
    setValue("#e-game", input.game);
    for (const name of ["hand", "discard", "active_bonuses", "hp"]) {
      $(`#exhaustion-form [name=${name}]`).value = input[name] ?? "";
    }
    return $("#exhaustion-form");
  },
  advantage(input) {
    setValue("#a-game", input.game);
    setValue("#a-mode", input.mode);
    $("#a-attack").value = input.attack ?? "";
    [0, 1].forEach((i) => {
      const card = (input.cards || [])[i] || {};
      $(`#a-card${i + 1}`).value = card.value ?? "";
      $(`#a-effects${i + 1}`).value = (card.effects || []).join(", ");
    });
    return $("#advantage-form");
  },
};

/** Open the check's calculator filled from `input`, focused on the first empty field. */
function openCalculator(check, input) {
  const form = PREFILL[check](input);
  form.scrollIntoView({ behavior: "smooth", block: "center" });
  const empty = [...form.querySelectorAll("input[required]")].find((x) => !x.value);
  (empty || form.querySelector("input, select")).focus({ preventScroll: true });
}

/** A field the question leaves out, by its calculator's label in the page's language: "attack"
 * -> "Angreb", "figures[1].initiative" -> "Drifter: Initiativ" (else the field's own name). */
function fieldLabel(check, field, input) {
  const [, list, k, name] = field.match(/^(\w+)\[(\d+)\]\.(\w+)$/) || [];
  if (list === "figures") {
    const words = { initiative: t("Initiative"), second: t("Second card"), summoner: t("Summoner") };
    return `${input.figures?.[k]?.name || t("Figures")}: ${words[name] || name}`;
  }
  if (field === "cards") return t("Card %(n)s", { n: "1, 2" });
  const control = PREFILL[check] && $(`#${check}-form [name="${field}"]`);
  const text = control && document.querySelector(`label[for="${control.id}"]`)?.firstChild?.textContent;
  return text?.trim() || field;
}

/** The computed answer: the sentence, then each step with its citation; when the question
 * leaves out what the answer depends on, what is missing and the calculator prefilled. */
function renderComputed(c) {
  const title = t("Computed from your question (%(check)s)", { check: label("check", c.check, c.check) });
  return el("section", { class: "computed", "aria-label": title, "data-check": c.check },
    el("p", { class: "label" }, title),
    el("p", { class: "verdict summary" }, el("strong", {}, c.summary)),
    c.missing.length > 0 && el("p", { class: "missing" },
      t("Not in the question: %(fields)s. Nothing is guessed.",
        { fields: c.missing.map((f) => fieldLabel(c.check, f, c.input)).join(", ") })),
    c.result && renderSteps(c.result.steps),
    // The reader's notes in the question's language (notes_local); the English ones marked so.
    c.notes.length > 0 && el("ul", { class: "notes", lang: c.notes_local ? null : "en" },
      (c.notes_local || c.notes).map((n) => el("li", { class: "note" }, n))),
    c.check in PREFILL && el("button", {
      type: "button", class: c.missing.length ? "" : "secondary",
      onclick: () => openCalculator(c.check, c.input),
    }, c.missing.length ? t("Fill in the calculator") : t("Open in the calculator")));
}

/** Wire the four calculator forms; returns renderComputed for the answers of app.js. */
export function initCalculators(helpers) {
  ({ $, el, api, load, renderSteps, t, label } = helpers);
  TYPES = { character: t("Character"), monster: t("Monster"), summon: t("Summon") };
  const { onSubmit } = helpers;
  onSubmit("#damage-form", (form) => load($("#damage-result"), t("Computing…"),
    () => api("/v1/check/damage", damagePayload(form)), renderDamage));
  onSubmit("#initiative-form", () => load($("#initiative-result"), t("Computing…"),
    () => api("/v1/check/initiative", { game: $("#i-game").value,
      figures: [...document.querySelectorAll("#figures .figure")].map(figurePayload) }), renderInitiative));
  onSubmit("#exhaustion-form", (form) => load($("#exhaustion-result"), t("Computing…"),
    () => api("/v1/check/exhaustion", exhaustionPayload(form)), renderExhaustion));
  onSubmit("#advantage-form", (form) => load($("#advantage-result"), t("Computing…"),
    () => api("/v1/check/advantage", advantagePayload(form)), renderAdvantage));
  $("#d-game").addEventListener("change", syncDamageGame);
  $("#add-figure").addEventListener("click", () => addFigure().querySelector("input").focus());
  [{ name: "Drifter", type: "character", initiative: 20, second: 45 },
    { name: "Banner Spear", type: "character", initiative: 20, second: 30 },
    { name: "Algox Archers", type: "monster", initiative: 20 },
    { name: "Banner", type: "summon", summoner: "Banner Spear" }].forEach(addFigure);
  return renderComputed;
}
