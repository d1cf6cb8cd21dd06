// The photo referee in the laser games' sandbox (issue 22 item 4): "Read a photo of the
// table" sends one photo (a file, or the phone's camera through the file input's capture
// attribute) to this server (POST /api/referee/photo: nothing leaves it, nothing is kept),
// shows the photo with every card found outlined and named, and puts the cards on the
// sandbox's table, where any card that came out wrong is dragged as usual before Resolve.
//
// Close calls (shots the photo cannot settle) are listed in words with their possible
// outcomes and their cards highlighted on the table. Once a card is moved, turned, added
// or removed, they are measured again on the table as it now stands (POST
// /api/referee/close-calls, each card keeping the uncertainty the photo gave it; a card
// added by hand is taken as exact); until the answer comes, or if the table as it stands
// is refused (cards touching), the list says they may no longer hold and the highlights go.

import { clear, el, postJSON, svg } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { said } from "../../shell/phrase.js";

/** The words of the photo panel (kept together for the catalogs). */
const WORDS = {
  title: () => t("Read a photo of the table"),
  choose: () => t("Take or choose a photo…"),
  hint: () => t("Photograph the printed cards from above or at an angle, every card whole in the photo."),
  reading: () => t("Reading the photo…"),
  found: (n) => tn("{n} card found. Drag any card that came out wrong, then press Resolve.",
    "{n} cards found. Drag any card that came out wrong, then press Resolve.", n),
  failed: (error) => t("The photo gives no table: {error}", { error }),
  photoAlt: () => t("the photo, each card found outlined"),
  none: () => t("No close calls: the photo settles every shot."),
  calls: (n) => tn("{n} close call: check this shot by eye.", "{n} close calls: check these shots by eye.", n),
  stale: () => t("A card was moved since the photo: these close calls were measured on the photo's table and may no longer hold."),
  again: () => t("Measured again on the table as it now stands: moved cards keep the photo's uncertainty."),
  kind: { "hit or miss": () => t("hit or miss"), "shield or bare edge": () => t("shield or bare edge") },
  speed: (speed) => t("Speed {speed}", { speed }),
  margin: (margin, sigma) => t("{margin} mm from flipping, photo uncertainty {sigma} mm", { margin, sigma }),
  // What a laser does, as measured and as it could be: complete phrases for each case.
  measured: (ship, laser, o) => (o.target === null
    ? t("{ship}'s laser {laser} misses every card", { ship, laser })
    : o.shielded ? t("{ship}'s laser {laser} is stopped by {target}'s shield", { ship, laser, target: o.target })
      : t("{ship}'s laser {laser} hits {target}", { ship, laser, target: o.target })),
  possible: (o) => (o.target === null ? t("or it misses every card")
    : o.shielded ? t("or {target}'s shield stops it", { target: o.target })
      : t("or it hits {target}", { target: o.target })),
};

/** The cards' poses as measured, by id, to tell when the table no longer is the photo's. */
const poseKey = (card) => `${card.x}/${card.y}/${card.rotation}`;
/** The whole table's poses, to tell which table the close calls were measured on. */
const tableKey = (cards) => cards.map((c) => `${c.id}@${poseKey({ rotation: 0, ...c })}`).sort().join(" ");
/** Wait this long after the last change before measuring the close calls again (ms). */
const AGAIN_AFTER_MS = 250;

/**
 * The photo panel of the laser sandbox. `openTable(table)` puts the photo's table in the
 * sandbox (resolves once it shows); `showError(message)` says what went wrong ("" clears).
 * `panel` is the element to add to the side column; the sandbox calls `sync(cards)` each
 * time it draws its table and `mark(group, card)` for each card it draws.
 */
/**
 * Move the labels of cards lying close together apart, so that no two run into each other:
 * each label, in reading order, stays on its card if it can, else goes just above or below
 * its card's outline, then farther, in whole lines, whichever is free first (and inside the
 * photo). `labels`: {label (an SVG text in the document), cx, cy, top, bottom} in photo px.
 */
function spreadLabels(labels, { width, height, size }) {
  const placed = [];
  const gap = size * 0.15;
  const overlaps = (a, b) => a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
  labels.sort((a, b) => a.cy - b.cy || a.cx - b.cx);
  for (const { label, cx, cy, top, bottom } of labels) {
    const box = label.getBBox(); // where it is now: centred on the card
    const w = box.width || size * 0.6 * label.textContent.length;
    const h = box.height || size * 1.2;
    const x = Math.min(Math.max(cx - w / 2, 0), Math.max(0, width - w));
    const tries = [cy, top - h / 2 - gap, bottom + h / 2 + gap];
    for (let line = 1; line <= 6; line += 1) tries.push(top - h / 2 - gap - line * h, bottom + h / 2 + gap + line * h);
    const inside = tries.filter((y) => y - h / 2 >= 0 && y + h / 2 <= height);
    const free = inside.find((y) => !placed.some((other) => overlaps({ x, y: y - h / 2, w, h }, other)));
    const y = free ?? cy;
    label.setAttribute("x", x + w / 2);
    label.setAttribute("y", y);
    placed.push({ x, y: y - h / 2, w, h });
  }
}

export class PhotoReader {
  constructor({ openTable, showError, tableFile, redraw, shipName }) {
    this.openTable = openTable;
    this.shipName = shipName; // a ship's name in words, by its kind ("ghost" -> "Ghost")
    this.showError = showError;
    this.tableFile = tableFile; // the sandbox's table as it now stands (a table file)
    this.redraw = redraw; // draw the sandbox's table again (its highlights)
    this.measuredOn = ""; // tableKey of the table the close calls were measured on
    this.again = false; // the close calls were measured again after a change
    this.timer = 0;
    this.asking = 0; // counts the requests, so that only the last one's answer shows
    this.answer = null; // the server's answer for the last photo read
    this.measured = new Map(); // card id -> pose as measured
    this.moved = new Set(); // ids of the photo's cards no longer where the photo put them
    this.stale = false;
    this.input = el("input", { id: "photo-file", type: "file", accept: "image/*", capture: "environment", hidden: true,
      on: { change: (e) => this.chosen(e.target) } });
    this.status = el("p", { id: "photo-status", class: "muted", role: "status" }, WORDS.hint());
    this.figure = el("figure", { id: "photo-figure", class: "photo-figure", hidden: true });
    this.list = el("section", { id: "close-calls", class: "close-calls", "aria-label": t("close calls"), hidden: true });
    this.panel = el("section", { class: "panel photo-panel", id: "photo-panel" },
      el("h2", { text: WORDS.title() }),
      el("div", { class: "tool-row" },
        el("label", { class: "button secondary", for: "photo-file", text: WORDS.choose() }), this.input),
      this.status, this.figure, this.list);
  }

  /** The file input's choice: send the photo and show what comes back. */
  async chosen(input) {
    const [file] = input.files;
    input.value = "";
    if (file) await this.read(file);
  }

  /** Send `file` to the server, then show the photo outlined and its table. */
  async read(file) {
    this.showError("");
    this.status.textContent = WORDS.reading();
    this.panel.setAttribute("aria-busy", "true");
    let answer;
    try {
      const response = await fetch("/api/referee/photo", {
        method: "POST",
        headers: { "Content-Type": photoType(file) },
        body: file,
      });
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new Error(said(body?.says) || body?.error || `${response.status} ${response.statusText}`);
      answer = body;
    } catch (error) {
      this.status.textContent = WORDS.hint();
      this.panel.removeAttribute("aria-busy");
      this.showError(WORDS.failed(error.message));
      return;
    }
    this.panel.removeAttribute("aria-busy");
    this.answer = answer;
    this.measured = new Map(answer.table.cards.map((c) => [c.id, poseKey({ rotation: 0, ...c })]));
    this.measuredOn = tableKey(answer.table.cards);
    this.moved.clear();
    this.stale = false;
    this.again = false;
    this.showPhoto(file, answer);
    this.status.textContent = WORDS.found(answer.cards.length);
    await this.openTable(answer.table);
    this.showCalls();
  }

  /** The photo with each card found outlined and named, the labels apart. */
  showPhoto(file, answer) {
    const old = this.figure.querySelector("img");
    if (old) URL.revokeObjectURL(old.src);
    const { width, height } = answer.image;
    const overlay = svg("svg", { class: "photo-outlines", viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" });
    clear(this.figure).append(
      el("div", { class: "photo-frame" },
        el("img", { src: URL.createObjectURL(file), alt: WORDS.photoAlt(), width, height }), overlay));
    this.figure.hidden = false;
    // The labels at 11 px on the screen at least (the photo is shown much smaller than it is).
    const shown = this.figure.clientWidth || width;
    const size = Math.max(Math.max(width, height) / 32, (11 * width) / shown);
    const labels = [];
    for (const card of answer.cards) {
      const points = card.outline_px;
      const [cx, cy] = points.reduce(([x, y], [px, py]) => [x + px / 4, y + py / 4], [0, 0]);
      const label = svg("text", { x: cx, y: cy, "font-size": size, "text-anchor": "middle", "dominant-baseline": "middle" }, this.cardName(card.id, { bare: true }));
      overlay.append(svg("g", { class: "photo-card", dataset: { card: card.id } },
        svg("polygon", { points: points.map((p) => p.join(",")).join(" "), "stroke-width": size / 5 }), label));
      labels.push({ label, cx, cy, top: Math.min(...points.map((p) => p[1])), bottom: Math.max(...points.map((p) => p[1])) });
    }
    spreadLabels(labels, { width, height, size });
  }

  /** The close calls of the photo's table in words, each with its possible outcomes. */
  showCalls() {
    const calls = this.answer?.close_calls || [];
    const box = clear(this.list);
    box.hidden = !this.answer;
    if (!this.answer) return;
    box.classList.toggle("stale", this.stale);
    box.append(el("p", { class: "close-calls-head", text: calls.length ? WORDS.calls(calls.length) : WORDS.none() }));
    if (this.stale && calls.length) box.append(el("p", { class: "close-calls-stale", role: "note", text: WORDS.stale() }));
    else if (this.again) box.append(el("p", { class: "close-calls-again muted", text: WORDS.again() }));
    if (!calls.length) return;
    const named = (id) => this.cardName(id);
    const words = (o) => ({ ...o, target: o.target === null ? null : named(o.target) });
    box.append(el("ol", {}, ...calls.map((call) => {
      const [first, ...others] = call.outcomes.map(words);
      const kind = WORDS.kind[call.kind]?.() || call.kind;
      return el("li", { dataset: { ship: call.ship, laser: call.laser } },
        el("strong", { text: `${WORDS.speed(call.speed)}: ` }),
        `${WORDS.measured(named(call.ship), call.laser + 1, first)}, ${others.map(WORDS.possible).join(", ")}. `,
        el("span", { class: "muted", text: `(${kind}: ${WORDS.margin(call.margin_mm, call.sigma_mm)})` }));
    })));
  }

  /**
   * The card `id` of the photo's table as a player says it ("red's Ghost", "the asteroid"),
   * not by its id; `bare` leaves the article off ("asteroid": a label on the photo).
   */
  cardName(id, { bare = false } = {}) {
    const card = this.answer?.table.cards.find((c) => c.id === id);
    if (card?.type === "asteroid") return bare ? t("asteroid") : t("the asteroid");
    return card?.ship ? t("{owner}'s {ship}", { owner: card.owner, ship: this.shipName(card.ship) }) : id;
  }

  /** The ids of the cards a close call involves: its ship and every card it may touch. */
  callCards() {
    const ids = new Set();
    for (const call of this.answer?.close_calls || []) {
      ids.add(call.ship);
      for (const outcome of call.outcomes) if (outcome.target) ids.add(outcome.target);
    }
    return ids;
  }

  /** The sandbox's table as it now stands: which cards moved since the photo, and are the
   * close calls still those of this table? If not, measure them again (after a pause). */
  sync(cards) {
    if (!this.answer) return;
    const now = new Map(cards.map((c) => [c.id, poseKey(c)]));
    this.moved = new Set([...this.measured].filter(([id, pose]) => now.get(id) !== pose).map(([id]) => id));
    for (const node of this.figure.querySelectorAll(".photo-card")) {
      node.classList.toggle("moved", this.moved.has(node.dataset.card));
    }
    const stale = tableKey(cards) !== this.measuredOn;
    if (stale !== this.stale) {
      this.stale = stale;
      this.showCalls();
    }
    clearTimeout(this.timer);
    if (stale) this.timer = setTimeout(() => this.measureAgain(), AGAIN_AFTER_MS);
  }

  /** Ask the server for the close calls of the sandbox's table as it now stands, each card
   * with the uncertainty the photo gave it. A table the server refuses (cards touching)
   * keeps the list marked as no longer holding. */
  async measureAgain() {
    const file = this.tableFile();
    const key = tableKey(file.cards);
    const uncertainty = Object.fromEntries((this.answer?.cards || [])
      .filter((c) => file.cards.some((card) => card.id === c.id))
      .map((c) => [c.id, { sigma_mm: c.sigma_mm, sigma_deg: c.sigma_deg }]));
    const asking = ++this.asking;
    let body;
    try {
      body = await postJSON("/api/referee/close-calls", { table: file, uncertainty });
    } catch {
      return; // the list stays marked as no longer holding
    }
    if (asking !== this.asking || !this.answer) return;
    this.answer.close_calls = body.close_calls;
    this.measuredOn = key;
    this.again = true;
    this.stale = key !== tableKey(this.tableFile().cards);
    this.showCalls();
    this.redraw();
  }

  /** Forget the photo (the sandbox changed game, its table went): the panel as before any
   * photo, and no close calls asked again of a table that is no longer the photo's. */
  forget() {
    clearTimeout(this.timer);
    this.asking += 1; // an answer on its way is for the table that went
    this.answer = null;
    this.measured = new Map();
    this.moved.clear();
    this.stale = false;
    this.again = false;
    this.measuredOn = "";
    const old = this.figure.querySelector("img");
    if (old) URL.revokeObjectURL(old.src);
    clear(this.figure).hidden = true;
    this.showCalls();
    this.status.textContent = WORDS.hint();
  }

  /** Highlight a card of the table that a close call involves (while the table is the photo's). */
  mark(group, card) {
    group.classList.toggle("close-call", Boolean(this.answer) && !this.stale && this.callCards().has(card.id));
  }
}

/** The content type to declare for `file` (a phone may give none: JPEG is what cameras write). */
function photoType(file) {
  return ["image/jpeg", "image/png", "image/webp"].includes(file.type) ? file.type : "image/jpeg";
}
