// The referee for a physical hex fleet game: set up the ships as they stand, record each
// combat step (raise shields, fire, hail, jump) with the cards actually turned at the table,
// and the server (POST /api/resolve, the combat script reader of DESIGN section 6) applies
// the charts. Every ship's gauges and log follow the steps; a step the server refuses shows
// its one-line reason at that step and leaves the script as it was. Combat scripts export
// and import as JSON files (or pasted text).
//
// API: startHexReferee({ onOtherGame }) -> { importData(data, name), parts }
//   Adds the hex fleet's panels (#hex-table, #hex-referee) to the page once; onOtherGame(data,
//   name) is handed an imported file of another game.

import "./sheet.js";
import { $, clear, el, postJSON, readJSON } from "../../shell/dom.js";
import { mountSandbox } from "../../shell/sandbox.js";
import { endCardIn } from "../../shell/endcard.js";
import { battleEnd, showBattleEnd } from "./referee_end.js";
import { COLOUR_NAMES, colourOf } from "../../shell/colours.js";
import { WEAPONS, cardsNeeded, cardsToFire, dealtAgain, pretty, readCards } from "./script_editor.js";
import { lang, playerName, t, tn } from "../../shell/i18n.js";
import { errorText, said } from "../../shell/phrase.js";
import { CARD_PLACES, logText } from "./cardnames.js";

const CLASSES = {
  light: { shields: 8, propulsion: 16, weapons: ["light"] },
  medium: { shields: 12, propulsion: 12, weapons: ["light", "heavy"] },
  heavy: { shields: 16, propulsion: 8, weapons: ["heavy"] },
};
const KINDS = {
  raise_shields: { label: () => t("Raise shields"), other: null },
  fire: { label: () => t("Fire at"), other: "at" },
  hail: { label: () => t("Hail"), other: "to" },
  jump: { label: () => t("Jump out"), other: null },
};
const LOST = () => [["shields_lost", t("Shield points lost"), "shields"], ["weapons_lost", t("Weapon systems lost"), "weapons"],
  ["propulsion_lost", t("Propulsion cells lost"), "propulsion"]];
/** A side's name in the page's language when it is a colour's ("red", "black"), else as it is. */
const side = (owner) => ({ black: t("black"), white: t("white") }[owner] || playerName(owner));
/** The words of the sizes (ship classes and weapons). */
const SIZE = () => ({ light: t("light"), medium: t("medium"), heavy: t("heavy") });
const ARMS = () => ({ light: t("light weapons"), heavy: t("heavy weapons") });

const clone = (value) => JSON.parse(JSON.stringify(value));

/** A fresh referee: two heavy ships, no step yet. */
function blankScript() {
  return {
    pile: 52,
    ships: [
      { id: "vigil", name: "Vigil", owner: "red", class: "heavy", weapons: "heavy", shields_up: false, shields_lost: 0, weapons_lost: 0, propulsion_lost: 0 },
      { id: "warden", name: "Warden", owner: "blue", class: "heavy", weapons: "heavy", shields_up: false, shields_lost: 0, weapons_lost: 0, propulsion_lost: 0 },
    ],
    steps: [],
    spare: [],
  };
}

const ref = {
  endShown: null, // the number of steps the end card was shown for (it opens once per end)
  script: blankScript(), // what the referee has recorded (last accepted by the server)
  answer: null, // the server's answer for it
  draft: { kind: "raise_shields", ship: "vigil", target: "", text: "" },
  errors: {}, // "step-N" | "ship-ID" | "draft" -> message
  busy: false,
};

// -- the script as JSON --------------------------------------------------------------------

/** The combat script file (DESIGN section 6) of `script`. */
function scriptFile(script) {
  const ships = {};
  for (const s of script.ships) {
    ships[s.id] = { class: s.class, weapons: s.weapons, owner: s.owner, name: s.name, shields_up: s.shields_up,
      shields_lost: s.shields_lost, weapons_lost: s.weapons_lost, propulsion_lost: s.propulsion_lost };
  }
  const steps = script.steps.map((step) => {
    const other = KINDS[step.kind].other;
    return other ? { [step.kind]: step.ship, [other]: step.target } : { [step.kind]: step.ship };
  });
  return { ruleset: "hexfleet", ships, steps, cards: [...script.steps.flatMap((s) => s.cards), ...script.spare], pile: script.pile };
}

/** The editor's script from a checked file (the server's `table`) and its result. */
function scriptFromAnswer(table, result) {
  const ships = Object.entries(table.ships).map(([id, s]) => ({ id, ...s }));
  const steps = table.steps.map((written, i) => {
    const kind = Object.keys(KINDS).find((k) => k in written);
    const settled = result.steps[i];
    const cards = [...settled.cards, ...(settled.damage || []).map((d) => d.card)];
    return { kind, ship: written[kind], target: KINDS[kind].other ? written[KINDS[kind].other] : null, cards };
  });
  return { pile: table.pile, ships, steps, spare: table.cards.slice(result.cards_used) };
}

// -- the ships step by step ------------------------------------------------------------------

function startState(ship) {
  const cls = CLASSES[ship.class];
  const weaponsMax = WEAPONS[ship.weapons].systems;
  return {
    id: ship.id, name: ship.name, owner: ship.owner, class: ship.class, weapon_size: ship.weapons,
    shields_max: cls.shields, weapons_max: weaponsMax, propulsion_max: cls.propulsion,
    shields: cls.shields - ship.shields_lost, weapons: weaponsMax - ship.weapons_lost,
    propulsion: cls.propulsion - ship.propulsion_lost, shields_up: ship.shields_up, status: "table",
  };
}

function withDerived(state) {
  state.salvo = cardsToFire(state.weapon_size, state.weapons_max - state.weapons, state.weapons_max);
  state.can_jump = 2 * state.propulsion >= state.propulsion_max;
  return state;
}

/** The ships before each step and after the last: [{id: state}] (steps + 1 entries). */
function timeline() {
  const now = Object.fromEntries(ref.script.ships.map((s) => [s.id, withDerived(startState(s))]));
  const states = [clone(now)];
  const settled = ref.answer?.result.steps || [];
  for (const step of settled) {
    const ship = now[step.ship];
    if (step.kind === "raise_shields" && step.success) ship.shields_up = true;
    if (step.kind === "jump") Object.assign(ship, { status: "jumped", shields_up: false });
    if (step.kind === "fire") {
      const target = now[step.target];
      for (const d of step.damage || []) {
        if (d.system) target[d.system] = d.left;
        if (d.system === "shields" && d.left === 0) target.shields_up = false;
      }
      if (step.wrecked) Object.assign(target, { status: "wrecked", shields_up: false });
      withDerived(target);
    }
    states.push(clone(now));
  }
  return states;
}

// -- talking to the server -------------------------------------------------------------------

/** Which part of the page a server message names: "step-N", "ship-ID" or "". */
function placeOf(message, script) {
  const step = /^(?:the cards ran out at )?step (\d+)/.exec(message) || /drawn at step (\d+)/.exec(message);
  if (step) return `step-${step[1]}`;
  const card = /^cards\[(\d+)\]/.exec(message);
  if (card) {
    let index = Number(card[1]);
    for (const [i, s] of script.steps.entries()) {
      if (index < s.cards.length) return `step-${i + 1}`;
      index -= s.cards.length;
    }
    return "";
  }
  const ship = /^ship '([^']*)'/.exec(message);
  return ship ? `ship-${ship[1]}` : "";
}

/** Each step must turn exactly the cards typed for it: the first step that does not ({place, shown}), or null. */
function misfit(script, result) {
  for (const [i, step] of script.steps.entries()) {
    const settled = result.steps[i];
    const used = [...settled.cards, ...(settled.damage || []).map((d) => d.card)];
    if (used.join(" ") !== step.cards.join(" ")) {
      return { place: `step-${i + 1}`, shown: tn("step {step}: it turns {n} card by the charts, {typed} are typed for it",
        "step {step}: it turns {n} cards by the charts, {typed} are typed for it", used.length, { step: i + 1, typed: step.cards.length }) };
    }
  }
  return null;
}

/**
 * Ask the server to settle `candidate`; keep it if accepted (true), else show the refusal
 * where it names (`fallback` if it names nothing) and keep the script as it was (false).
 */
/** The number of the latest script sent to the server: an answer to an older one, come
 * late (a blank script on opening, then an imported one, answered in the other order), is
 * not shown over the newer one's. */
let asked = 0;

async function submit(candidate, fallback = "") {
  const mine = ++asked;
  ref.busy = true;
  let answer;
  try {
    answer = await postJSON(`/api/resolve?lang=${lang}`, scriptFile(candidate));
  } catch (error) {
    if (mine !== asked) return false;
    ref.busy = false;
    refuse(errorText(error, CARD_PLACES), placeOf(error.message, candidate) || fallback);
    return false;
  }
  if (mine !== asked) return false;
  ref.busy = false;
  const wrong = misfit(candidate, answer.result);
  if (wrong) {
    refuse(wrong.shown, wrong.place);
    return false;
  }
  ref.script = candidate;
  ref.answer = answer;
  ref.errors = {};
  render();
  return true;
}

function refuse(message, place) {
  ref.errors = { [place || "page"]: message };
  render();
  const shown = document.querySelector(".hex-error:not([hidden])");
  shown?.scrollIntoView({ block: "nearest" });
}

// -- drawing ---------------------------------------------------------------------------------

const owners = () => [...new Set(ref.script.ships.map((s) => s.owner))];
/** A side's colour: its own when it is named after one (red, blue...), else the next free one. */
function ownerColour(owner) {
  const named = { ...Object.fromEntries(COLOUR_NAMES.map((name, i) => [name, colourOf(i)])), black: "#c9ced9", white: "#f4f1e8" };
  if (named[owner]) return named[owner];
  const free = COLOUR_NAMES.map((_, i) => colourOf(i)).filter((c) => !owners().some((o) => named[o] === c));
  const others = owners().filter((o) => !named[o]);
  return free[others.indexOf(owner) % free.length] || colourOf(0);
}

function errorLine(place) {
  const message = ref.errors[place];
  return el("p", { class: "error hex-error", role: "alert", hidden: !message, text: message || "" });
}

function gauge(label, value, max, words) {
  return el("div", { class: "hex-gauge" },
    el("span", { class: "hex-gauge-label", text: label }),
    el("meter", { min: 0, max, value, "aria-label": t("{label}: {value} of {max}", { label, value, max }) }),
    el("span", { class: "hex-gauge-value", text: `${value}/${max}${words ? ` · ${words}` : ""}` }));
}

const STATUS_WORDS = () => ({ table: t("in the battle"), jumped: t("jumped out"), wrecked: t("a wreck"), gone: t("gone") });

function shipCard(ship, state, logLines) {
  const where = `ship-${ship.id}`;
  const used = ref.script.steps.some((s) => s.ship === ship.id || s.target === ship.id);
  const card = el("article", { class: `hex-ship-card status-${state.status}`, style: `--team: ${ownerColour(ship.owner)}`,
    dataset: { ship: ship.id }, "aria-label": t("{ship}'s gauges and log", { ship: ship.name }) },
  el("h3", {}, el("span", { class: "swatch" }), ` ${ship.name} `,
    el("small", { class: "muted", text: `${side(ship.owner)} · ${SIZE()[ship.class]}${ship.class === "medium" ? `, ${ARMS()[ship.weapons]}` : ""} · ${STATUS_WORDS()[state.status]}` })),
  gauge(t("Shields"), state.shields, state.shields_max, state.shields_up ? t("up") : t("down")),
  gauge(t("Weapons"), state.weapons, state.weapons_max, state.salvo ? tn("{n}-card salvo", "{n}-card salvo", state.salvo) : t("cannot fire")),
  gauge(t("Propulsion"), state.propulsion, state.propulsion_max, state.can_jump ? t("can jump") : t("cannot jump")),
  errorLine(where));
  const log = el("ol", { class: "hex-ship-log", "aria-label": t("{ship}'s log", { ship: ship.name }), tabindex: 0 });
  for (const { step, text } of logLines) log.append(el("li", {}, el("b", { text: `${step}. ` }), text));
  if (!logLines.length) log.append(el("li", { class: "muted", text: t("Nothing yet.") }));
  card.append(el("details", { class: "hex-log-box", open: window.innerWidth > 820 }, el("summary", { text: t("Ship's log ({n})", { n: logLines.length }) }), log));
  card.append(setupBox(ship, used));
  return card;
}

/** The ship's fields as it stood when the recorded combat began. */
function setupBox(ship, used) {
  const change = (field, value) => {
    if (field === "id" && ref.script.ships.some((s) => s !== ship && s.id === value)) {
      refuse(t("ship '{id}': another ship already has the id '{other}'", { id: ship.id, other: value }), `ship-${ship.id}`);
      return;
    }
    const candidate = clone(ref.script);
    const target = candidate.ships.find((s) => s.id === ship.id);
    target[field] = value;
    if (field === "class") target.weapons = CLASSES[value].weapons.includes(target.weapons) ? target.weapons : CLASSES[value].weapons[0];
    if (field === "id") {
      for (const step of candidate.steps) {
        if (step.ship === ship.id) step.ship = value;
        if (step.target === ship.id) step.target = value;
      }
      if (ref.draft.ship === ship.id) ref.draft.ship = value;
    }
    submit(candidate, `ship-${ship.id}`);
  };
  const text = (field, label, max = 40) => el("label", {}, label,
    el("input", { type: "text", value: ship[field], maxlength: max, on: { change: (e) => change(field, e.target.value.trim()) } }));
  const number = (field, label, most) => el("label", {}, label,
    el("input", { type: "number", name: field, min: 0, max: most, value: ship[field], on: { change: (e) => change(field, Number(e.target.value)) } }));
  const cls = CLASSES[ship.class];
  const most = { shields: cls.shields, weapons: WEAPONS[ship.weapons].systems, propulsion: cls.propulsion };
  return el("details", { class: "hex-setup" }, el("summary", { text: t("Set up (as it stood before the first step)") }),
    el("div", { class: "hex-fields" },
      text("name", t("Name")), text("id", t("Id")), text("owner", t("Side")),
      el("label", {}, t("Class"), el("select", { on: { change: (e) => change("class", e.target.value) } },
        ...Object.keys(CLASSES).map((c) => el("option", { value: c, selected: c === ship.class, text: SIZE()[c] })))),
      el("label", {}, t("Weapons"), el("select", { disabled: ship.class !== "medium", on: { change: (e) => change("weapons", e.target.value) } },
        ...cls.weapons.map((w) => el("option", { value: w, selected: w === ship.weapons, text: ARMS()[w] })))),
      ...LOST().map(([field, label, system]) => number(field, label, most[system])),
      el("label", { class: "check" }, el("input", { type: "checkbox", checked: ship.shields_up, on: { change: (e) => change("shields_up", e.target.checked) } }), ` ${t("Shields up")}`),
      el("button", { type: "button", class: "danger", disabled: used, title: used ? t("a recorded step names this ship") : t("remove this ship"),
        on: { click: () => removeShip(ship.id) } }, t("Remove ship"))));
}

function render() {
  const states = timeline();
  const now = states[states.length - 1];
  const logs = ref.answer?.result.log || [];
  // The main area: every ship's gauges and log.
  const table = clear($("#hex-table"));
  table.append(el("p", { class: "help hex-intro", text: t("Settle the combat of a real hex fleet game: set up the ships as they stand, then record each step with the cards turned at the table. The charts are applied for you; the gauges and each ship's log follow.") }));
  table.append(el("a", { class: "hex-jump", href: "#hex-draft", text: t("Record step {n} ↓", { n: ref.script.steps.length + 1 }) }), errorLine("page"));
  const grid = el("div", { class: "hex-ship-grid" });
  for (const ship of ref.script.ships) {
    const lines = [];
    logs.forEach((stepLines, i) => {
      for (const line of stepLines) if (line.ships.includes(ship.id)) lines.push({ step: i + 1, text: logText(line) });
    });
    grid.append(shipCard(ship, now[ship.id], lines));
  }
  table.append(grid, el("div", { class: "tool-row" }, el("button", { type: "button", class: "secondary", id: "hex-add-ship", on: { click: addShip } }, t("Add ship")),
    el("label", { title: t("52 for a fresh deck; fewer if cards were turned before this combat (the deck is shuffled again when it runs out)") },
      `${t("Cards in the draw pile at the start")} `, el("input", { type: "number", id: "hex-pile", min: 0, max: 52, value: ref.script.pile,
      on: { change: (e) => submit({ ...clone(ref.script), pile: Number(e.target.value) }, "page") } }))));
  if (ref.answer?.svg) {
    const drawing = el("div", { class: "hex-drawing" });
    drawing.innerHTML = ref.answer.svg; // the server's own drawing of the script
    table.append(el("details", { class: "hex-drawing-box" }, el("summary", { text: t("The combat drawn card by card") }), drawing));
  }
  renderSteps(states);
  renderEnd(now);
}

/** The end of the combat over the table, where the referee looks, once per end. */
function renderEnd(now) {
  const end = battleEnd(ref.script, now);
  if (!end) {
    ref.endShown = null;
    endCard?.hide();
    return;
  }
  if (!endCard || ref.endShown === ref.script.steps.length) return;
  ref.endShown = ref.script.steps.length;
  showBattleEnd(endCard, end, { colourOf: ownerColour, sideName: side, onExport: exportScript, onRestart: startOver });
}

function stepTitle(step) {
  const name = (id) => ref.script.ships.find((s) => s.id === id)?.name || id;
  if (step.kind === "fire") return t("{ship} fires at {target}", { ship: name(step.ship), target: name(step.target) });
  if (step.kind === "hail") return t("{ship} hails {target}", { ship: name(step.ship), target: name(step.target) });
  if (step.kind === "jump") return t("{ship} jumps out", { ship: name(step.ship) });
  return t("{ship} raises shields", { ship: name(step.ship) });
}

/** A field for a step's cards: each card read as typed, and what the step needs. */
function cardsField(id, label, text, needOf, onChange) {
  const input = el("input", { type: "text", id, value: text, autocomplete: "off", spellcheck: "false", placeholder: t("e.g. KS 10s 2h or K♠"),
    "aria-describedby": `${id}-need` });
  const chips = el("div", { class: "hex-chips", "aria-hidden": "true" });
  const need = el("p", { class: "help hex-need", id: `${id}-need`, "aria-live": "polite" });
  const show = () => {
    const tokens = readCards(input.value);
    const cards = tokens.filter((t) => t.card).map((t) => t.card);
    const needed = needOf(cards);
    clear(chips);
    tokens.forEach((token, i) => {
      const extra = token.card && !token.why && i >= needed.need && needed.need >= 0 && cards.length > needed.need;
      chips.append(el("span", { class: `hex-chip${token.why ? " bad" : ""}${extra ? " extra" : ""}${token.card && "HD".includes(token.card.slice(-1)) ? " red" : ""}`,
        title: token.why || (extra ? t("one card more than the step needs") : token.card) }, token.card ? pretty(token.card) : token.text));
    });
    const bad = tokens.find((t) => t.why);
    const over = cards.length > needed.need;
    need.textContent = bad ? bad.why : over ? `${needed.text} ${tn("{n} card too many.", "{n} cards too many.", cards.length - needed.need)}` : needed.text;
    need.classList.toggle("bad", Boolean(bad || over));
    return { cards, ready: !bad && !over && needed.done, bad: bad?.why };
  };
  input.addEventListener("input", () => onChange(show(), false));
  input.addEventListener("change", () => onChange(show(), true));
  const out = el("div", { class: "hex-cards-field" }, el("label", { for: id, text: label }), input, chips, need);
  out.refresh = show;
  queueMicrotask(() => onChange(show(), false));
  return out;
}

function renderSteps(states) {
  const list = clear($("#hex-steps"));
  const logs = ref.answer?.result.log || [];
  ref.script.steps.forEach((step, i) => {
    const before = states[i];
    const last = i === ref.script.steps.length - 1;
    const row = el("li", { class: "hex-step", dataset: { step: i + 1 } }, el("h3", {}, `${i + 1}. ${stepTitle(step)}`));
    if (step.kind !== "jump") {
      row.append(cardsField(`hex-step-${i + 1}-cards`, t("Cards turned"), step.cards.join(" "),
        (cards) => cardsNeeded(step.kind, before[step.ship], before[step.target], cards),
        (typed, committed) => {
          if (!committed) return;
          if (typed.bad) {
            refuse(t("step {step}: {why}", { step: i + 1, why: typed.bad }), `step-${i + 1}`);
            return;
          }
          if (typed.cards.join(" ") === step.cards.join(" ")) return;
          const candidate = clone(ref.script);
          candidate.steps[i].cards = typed.cards;
          submit(candidate, `step-${i + 1}`);
        }));
    }
    const told = el("ul", { class: "hex-step-log" }, ...(logs[i] || []).map((line) => el("li", { text: logText(line) })));
    // A card typed twice before the deck was shuffled is settled as typed, and warned of.
    const phrases = ref.answer?.result.warnings_says || [];
    const warnings = (ref.answer?.result.warnings || []).map((w, k) => (phrases[k] ? said(phrases[k], CARD_PLACES) : w))
      .filter((_, k) => placeOf(ref.answer.result.warnings[k], ref.script) === `step-${i + 1}`);
    row.append(told, ...warnings.map((w) => el("p", { class: "hex-warning", text: t("Check the cards: {warning}", { warning: w }) })), errorLine(`step-${i + 1}`));
    if (last) {
      row.append(el("button", { type: "button", class: "secondary hex-undo", on: { click: () => {
        const candidate = clone(ref.script);
        candidate.steps.pop();
        submit(candidate, `step-${i + 1}`);
      } } }, t("Remove this step")));
    }
    list.append(row);
  });
  if (ref.script.spare.length) {
    list.append(el("li", { class: "hex-step muted" }, t("Cards listed after the last step (not needed yet): {cards}", { cards: ref.script.spare.join(" ") })));
  }
  if (!ref.script.steps.length) list.append(el("li", { class: "muted hex-step", text: t("No step recorded yet.") }));
  renderDraft(states[states.length - 1]);
}

function renderDraft(now) {
  const box = clear($("#hex-draft"));
  const draft = ref.draft;
  const onTable = ref.script.ships.filter((s) => now[s.id]?.status === "table");
  if (!onTable.some((s) => s.id === draft.ship)) draft.ship = onTable[0]?.id || "";
  const acting = ref.script.ships.find((s) => s.id === draft.ship);
  const others = onTable.filter((s) => s.id !== draft.ship && (draft.kind !== "fire" || s.owner !== acting?.owner));
  const needsTarget = Boolean(KINDS[draft.kind].other);
  if (needsTarget && !others.some((s) => s.id === draft.target)) draft.target = others[0]?.id || "";
  const number = ref.script.steps.length + 1;
  const redraw = () => renderDraft(now);
  const record = el("button", { type: "submit", id: "hex-record", disabled: true }, t("Record step"));
  box.append(el("h2", { text: t("Step {n}", { n: number }) }),
    el("div", { class: "hex-fields" },
      el("label", {}, t("Ship"), el("select", { id: "hex-draft-ship", on: { change: (e) => { draft.ship = e.target.value; redraw(); } } },
        ...onTable.map((s) => el("option", { value: s.id, selected: s.id === draft.ship, text: `${s.name} (${side(s.owner)})` })))),
      el("label", {}, t("Does"), el("select", { id: "hex-draft-kind", on: { change: (e) => { draft.kind = e.target.value; draft.text = ""; redraw(); } } },
        ...Object.entries(KINDS).map(([k, v]) => el("option", { value: k, selected: k === draft.kind, text: v.label() })))),
      needsTarget ? el("label", {}, draft.kind === "fire" ? t("Target") : t("Whom"), el("select", { id: "hex-draft-target", on: { change: (e) => { draft.target = e.target.value; redraw(); } } },
        ...others.map((s) => el("option", { value: s.id, selected: s.id === draft.target, text: `${s.name} (${side(s.owner)})` })))) : null));
  let ready = draft.kind === "jump";
  if (needsTarget && !others.length) {
    box.append(el("p", { class: "help hex-need bad", text: draft.kind === "fire"
      ? t("No ship of another side is in the battle for {ship} to fire at.", { ship: acting?.name ?? "" }) : t("No other ship is in the battle to hail.") }));
  } else if (draft.kind !== "jump") {
    const twice = el("p", { class: "hex-warning", id: "hex-draft-twice", role: "status", hidden: true });
    box.append(cardsField("hex-draft-cards", t("Cards turned, in order"), draft.text,
      (cards) => cardsNeeded(draft.kind, now[draft.ship], now[draft.target], cards),
      (typed) => {
        draft.text = $("#hex-draft-cards").value;
        ready = typed.ready;
        record.disabled = !ready || !draft.ship || (needsTarget && !draft.target);
        const again = dealtAgain(ref.script, typed.cards);
        twice.textContent = again.map(({ card, step }) => (step === "draft"
          ? t("Check the cards: {card} already came out earlier in this step and the deck has not been shuffled since.", { card: pretty(card) })
          : t("Check the cards: {card} already came out at step {step} and the deck has not been shuffled since.", { card: pretty(card), step }))).join(" ");
        twice.hidden = !again.length;
      }), twice);
  } else {
    const ship = now[draft.ship];
    box.append(el("p", { class: "help hex-need", text: ship?.can_jump ? t("A jump turns no card; the ship leaves the battle.")
      : t("{ship} keeps {n} of {max} propulsion cells: it needs half to jump.", { ship: ship?.name ?? "", n: ship?.propulsion ?? 0, max: ship?.propulsion_max ?? 0 }) }));
  }
  record.disabled = !ready || !draft.ship || (needsTarget && !draft.target);
  box.append(errorLine("draft"), errorLine(`step-${number}`), el("div", { class: "tool-row" }, record));
  box.onsubmit = async (e) => {
    e.preventDefault();
    if (record.disabled || ref.busy) return;
    const cards = draft.kind === "jump" ? [] : readCards($("#hex-draft-cards").value).map((t) => t.card);
    const candidate = clone(ref.script);
    candidate.spare = [];
    candidate.steps.push({ kind: draft.kind, ship: draft.ship, target: needsTarget ? draft.target : null, cards });
    if (await submit(candidate, "draft")) {
      draft.text = "";
      render();
      $("#hex-draft-cards")?.focus();
    }
  };
}

// -- ships -----------------------------------------------------------------------------------

function addShip() {
  const candidate = clone(ref.script);
  const ids = new Set(candidate.ships.map((s) => s.id));
  let n = candidate.ships.length + 1;
  while (ids.has(`ship-${n}`)) n += 1;
  const sides = owners();
  const owner = sides.length < 2 ? ["red", "blue"].find((o) => !sides.includes(o)) : sides[candidate.ships.length % sides.length];
  candidate.ships.push({ id: `ship-${n}`, name: t("Ship {n}", { n }), owner, class: "medium", weapons: "light", shields_up: false, shields_lost: 0, weapons_lost: 0, propulsion_lost: 0 });
  submit(candidate, "page");
}

function removeShip(id) {
  const candidate = clone(ref.script);
  candidate.ships = candidate.ships.filter((s) => s.id !== id);
  submit(candidate, `ship-${id}`);
}

// -- files -----------------------------------------------------------------------------------

function exportScript() {
  const blob = new Blob([`${JSON.stringify(scriptFile(ref.script), null, 1)}\n`], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: "combat-script.json" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Load a combat script (decoded JSON): the server checks it; refused, nothing changes. */
async function importData(data, name = t("the script")) {
  if (data && data.ruleset && data.ruleset !== "hexfleet") return onOther(data, name);
  const mine = ++asked;
  ref.busy = true;
  let answer;
  try {
    answer = await postJSON(`/api/resolve?lang=${lang}`, data);
  } catch (error) {
    if (mine !== asked) return false;
    ref.busy = false;
    refuse(`${name}: ${errorText(error, CARD_PLACES)}`, "page");
    return false;
  }
  if (mine !== asked) return false;
  ref.busy = false;
  ref.script = scriptFromAnswer(answer.table, answer.result);
  ref.answer = answer;
  ref.errors = {};
  ref.endShown = null; // a combat of its own: its end shows
  ref.draft = { kind: "raise_shields", ship: ref.script.ships[0]?.id || "", target: "", text: "" };
  render();
  return true;
}

async function importText(text, name) {
  const { data, error } = await readJSON(text);
  if (error !== undefined) {
    refuse(t("{file}: {error}", { file: name, error }), "page");
    return;
  }
  await importData(data, name);
}

// -- the page --------------------------------------------------------------------------------

let onOther = () => {};
let started = null;
let endCard = null; // the end of the combat, over the table (shell/endcard.js)

/** A fresh referee: the two ships of a new script, no step. */
function startOver() {
  ref.script = blankScript();
  ref.draft = { kind: "raise_shields", ship: "vigil", target: "", text: "" };
  submit(ref.script, "page");
}

function buildPanels() {
  const side = clear($("#hex-referee"));
  side.append(
    el("section", { class: "panel" },
      el("div", { class: "tool-row" },
        el("button", { type: "button", class: "secondary", id: "hex-export", on: { click: exportScript } }, t("Export script")),
        el("label", { class: "button secondary", for: "hex-import-file" }, t("Import script…")),
        el("input", { type: "file", id: "hex-import-file", accept: ".json,application/json", hidden: true, on: { change: async (e) => {
          const [file] = e.target.files;
          e.target.value = "";
          if (file) await importText(await file.text(), file.name);
        } } }),
        el("button", { type: "button", class: "secondary", id: "hex-new", on: { click: startOver } }, t("Start over"))),
      el("details", { class: "hex-paste" }, el("summary", { text: t("Paste a combat script") }),
        el("label", { for: "hex-paste-text", class: "help", text: t("The JSON of a combat script (as Export writes it):") }),
        el("textarea", { id: "hex-paste-text", rows: 5 }),
        el("button", { type: "button", class: "secondary", id: "hex-paste-load", on: { click: () => importText($("#hex-paste-text").value, t("the pasted script")) } }, t("Load it")))),
    el("form", { class: "panel hex-draft", id: "hex-draft", "aria-label": t("record the next step") }),
    el("section", { class: "panel" }, el("h2", { text: t("Steps recorded") }), el("ol", { id: "hex-steps", class: "hex-steps" })),
  );
}

/** Switch the referee page to hex fleet (once); see the header. */
export function startHexReferee({ onOtherGame } = {}) {
  onOther = onOtherGame || (() => {});
  if (!started) {
    const parts = mountSandbox({ table: [el("div", { id: "hex-table", class: "hex-table" })],
      side: [el("div", { id: "hex-referee", class: "hex-referee" })] });
    buildPanels();
    endCard = endCardIn($("#table-wrap"), "hex-end-card");
    submit(ref.script, "page");
    // Leaving for another game's sandbox, its errors go: they were about this script, and
    // so does its end card (shown again when the script changes).
    started = { importData, leave: () => { ref.errors = {}; render(); endCard.hide(); }, parts };
  } else {
    render();
  }
  return started;
}
