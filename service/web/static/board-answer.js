// The monster board editor's answer: the options the players choose among, each drawn in its
// own colour over the board, and the list and stepper that pick the one drawn in full.
// board.js imports this module and passes t() (the page's catalogue); strings from the API
// reach the page as text only.

// One colour per option (cycled), so that each option's lines read apart on the board. The
// page's stylesheet has no rules for these overlay elements: they carry their own attributes.
const OPTION_COLOURS = ["#1f7a45", "#7b3fa0", "#c25b00", "#1d5fa8", "#a3285a", "#3d7d8a", "#8a6d00", "#444"];
export const optionColour = (i) => OPTION_COLOURS[i % OPTION_COLOURS.length];

const hexText = (h) => `${h[0]},${h[1]}`;
const hexList = (hexes, word) => hexes.map(hexText).join(` ${word} `);
const same = (a, b) => a[0] === b[0] && a[1] === b[1];

/** "Option 2: move to hex 4,3, attack hex 5,2" (or "Move to hex …" when it is the only one),
 * in the page's language (`t`). */
export function optionText(o, i, several, t) {
  const hex = hexText(o.destination);
  const [or, and] = [t("or"), t("and")]; // apart: the extractor skips a t() nested in another call
  const toward = o.toward?.length ? ` ${t("(toward hex %(hexes)s)", { hexes: hexList(o.toward, or) })}` : "";
  return (several ? t("Option %(n)s: move to hex %(hex)s", { n: i + 1, hex }) : t("Move to hex %(hex)s", { hex }))
    + (o.attacks.length ? t(", attack hex %(hexes)s", { hexes: hexList(o.attacks, and) }) : t(", no attack") + toward);
}

/** Lines over the board: for every option, from its destination to each hex it attacks, in
 * its own colour (the option shown bold, the others thin and dashed); for the option shown,
 * the move from the monster's hex and, when it cannot attack yet, the hex it heads for. */
export function optionLines({ svg, centre }, options, selected, monsterHex) {
  const layer = svg("g", { class: "option-lines", "aria-hidden": "true", "pointer-events": "none" });
  const line = (from, to, attrs) => {
    const [x1, y1] = centre(...from);
    const [x2, y2] = centre(...to);
    layer.append(svg("line", { x1, y1, x2, y2, "stroke-linecap": "round", ...attrs }));
  };
  options.forEach((o, i) => {
    const shown = i === selected;
    const paint = { stroke: optionColour(i), "stroke-width": shown ? 2.5 : 1.2, opacity: shown ? 1 : 0.55,
      "stroke-dasharray": shown ? null : "3 2", "data-option": i + 1 };
    o.attacks.forEach((h) => line(o.destination, h, { class: "attack-line", ...paint }));
    if (!shown) return;
    if (monsterHex && !same(monsterHex, o.destination)) {
      line(monsterHex, o.destination, { class: "move-line", ...paint, "stroke-dasharray": "6 3" });
    }
    (o.toward || []).forEach((h) => line(o.destination, h, { class: "toward-line", ...paint,
      "stroke-dasharray": "1 3", "stroke-width": 2 }));
  });
  return layer;
}

/** The answer: verdict, the options (buttons to pick the one drawn, Previous / Next when the
 * players choose), the steps. `show(i)` draws option i on the board. */
export function answerView({ el, renderSteps, t }, res, show) {
  const n = res.options.length;
  const several = n > 1;
  let selected = 0;
  const status = el("span", { class: "option-status status", "aria-live": "polite" });
  const buttons = res.options.map((o, i) => el("button", { type: "button", class: "option chip",
    "aria-pressed": String(i === 0), onclick: () => pick(i) }, optionText(o, i, true, t)));
  const drawn = () => t("Option %(n)s of %(count)s is drawn on the board.", { n: selected + 1, count: n });
  function pick(i) {
    selected = (i + n) % n;
    buttons.forEach((b, j) => b.setAttribute("aria-pressed", String(j === selected)));
    status.textContent = drawn();
    show(selected);
  }
  status.textContent = drawn();
  return el("div", { class: "monster-answer" },
    el("p", { class: "verdict" }, res.explanation_local || res.explanation),
    several && el("p", { class: "hint" }, t("These options are equally valid: the players choose."), " ",
      t("Each has its own colour on the board; pick one below, or step through them, to draw it in full.")),
    several && el("div", { class: "buttons option-stepper" },
      el("button", { type: "button", class: "secondary", onclick: () => pick(selected - 1) }, t("Previous option")),
      el("button", { type: "button", class: "secondary", onclick: () => pick(selected + 1) }, t("Next option")),
      status),
    el("ul", { class: "options" }, res.options.map((o, i) => el("li", {},
      several ? buttons[i] : optionText(o, i, false, t)))),
    el("p", { class: "label" }, t("How the rules decide it:")),
    renderSteps(res.steps));
}
