// Hex fleet ships' logs: the battle told in words, and any one ship's log (the rulebook's
// "ship's log": the lines that name that ship).
//
// API (kept stable: the room page and the replay import it):
//   export class ShipLogs {
//     constructor(container, { onSelect, ships } = {})
//       container: an element the panel is built in (a panel on a desktop, a drawer that
//       opens and closes on a phone). onSelect(shipId | null) is called when the player
//       picks a ship in the chooser (null: every ship). ships: as for ships() below.
//     add(lines)     append log lines ([{turn, ships, text}], as in a frame's `log` delta
//                    or the tail of the view's `log`), newest at the bottom.
//     reset(lines)   replace the whole log (a late joiner's view, a replay's step back).
//     select(shipId | null)   show only that ship's lines (null: all); also sets the chooser.
//     ships(list)    tell the chooser the ships' names ([{id, name, owner}], a frame's
//                    `ships`); without it the chooser lists the ids the lines name.
//   }

import "./sheet.js";
import { el } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";
import { logText } from "./cardnames.js";

/** Below this width the log is a drawer, closed until opened. */
const PHONE = "(max-width: 820px)";

export class ShipLogs {
  /** Build the panel in `container`. */
  constructor(container, { onSelect = null, ships = null } = {}) {
    this.onSelect = onSelect;
    this.names = new Map(); // ship id -> name (with its owner)
    this.lines = [];
    this.selected = null;
    this.lastTurn = null;
    this.chooser = el("select", { class: "hx-log-chooser", "aria-label": t("whose log to read"), on: { change: () => this.#chosen() } });
    this.list = el("ol", { class: "hx-log-list" });
    // The scrolling box takes the keyboard (arrows scroll it) and is read out as a log.
    this.scroller = el("div", { class: "hx-log", role: "log", tabindex: "0", "aria-label": t("the battle in words") }, this.list);
    this.count = el("span", { class: "hx-log-count" });
    this.empty = el("p", { class: "hx-log-empty muted", text: t("Nothing yet.") });
    // The newest line, under the title while the drawer is closed.
    this.latest = el("span", { class: "hx-log-latest" });
    const phone = typeof matchMedia === "function" && matchMedia(PHONE).matches;
    this.root = el("details", { class: "hx-logs panel", open: !phone },
      el("summary", {}, el("span", { class: "hx-log-title", text: t("Ships' logs") }), " ", this.count, this.latest),
      el("label", { class: "hx-log-pick" }, t("Read the log of") + " ", this.chooser),
      this.empty, this.scroller);
    container.append(this.root);
    this.#fillChooser();
    if (ships) this.ships(ships);
  }

  /** Tell the chooser the ships' names: a list of ship JSON ({id, name, owner}). */
  ships(list) {
    for (const ship of list || []) this.names.set(String(ship.id), ship.owner ? t("{ship} ({owner})", { ship: ship.name, owner: ship.owner }) : ship.name);
    this.#fillChooser();
    this.#filter();
  }

  /** Append log lines ({turn, ships, text}), newest at the bottom. */
  add(lines) {
    const box = this.scroller;
    const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    let newShip = false;
    for (const line of lines || []) {
      this.lines.push(line);
      for (const id of line.ships || []) {
        if (!this.names.has(String(id))) {
          this.names.set(String(id), t("ship {id}", { id }));
          newShip = true;
        }
      }
      if (line.turn !== this.lastTurn) {
        this.lastTurn = line.turn;
        this.list.append(el("li", { class: "hx-turn-head", dataset: { turn: line.turn }, text: t("Turn {turn}", { turn: line.turn }) }));
      }
      const item = el("li", { class: "hx-line", dataset: { turn: line.turn, ships: (line.ships || []).join(" ") }, text: logText(line) });
      if (/^the battle is over/.test(line.text)) item.classList.add("hx-over");
      this.list.append(item);
    }
    if (newShip) this.#fillChooser();
    this.#filter();
    if (atBottom) box.scrollTop = box.scrollHeight;
  }

  /** Replace the whole log with `lines`. */
  reset(lines) {
    this.lines = [];
    this.lastTurn = null;
    this.list.replaceChildren();
    this.add(lines);
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** Show only the lines that name ship `shipId` (null: every line). */
  select(shipId) {
    this.selected = shipId === null || shipId === undefined ? null : String(shipId);
    if (this.selected !== null && !this.names.has(this.selected)) {
      this.names.set(this.selected, t("ship {id}", { id: this.selected }));
      this.#fillChooser();
    }
    this.chooser.value = this.selected ?? "";
    this.#filter();
  }

  #chosen() {
    this.selected = this.chooser.value || null;
    this.#filter();
    this.onSelect?.(this.selected);
  }

  #fillChooser() {
    const options = [el("option", { value: "", text: t("every ship (the whole battle)") })];
    for (const [id, name] of this.names) options.push(el("option", { value: id, text: name }));
    this.chooser.replaceChildren(...options);
    this.chooser.value = this.selected ?? "";
  }

  /** Hide the lines (and turn headings left empty) that do not name the chosen ship. */
  #filter() {
    const id = this.selected;
    let shown = 0;
    let head = null;
    let headShown = false;
    const closeHead = () => {
      if (head) head.hidden = !headShown;
    };
    for (const item of this.list.children) {
      if (item.classList.contains("hx-turn-head")) {
        closeHead();
        head = item;
        headShown = false;
        continue;
      }
      const visible = id === null || item.dataset.ships.split(" ").includes(id);
      item.hidden = !visible;
      if (visible) {
        shown += 1;
        headShown = true;
      }
    }
    closeHead();
    const newest = [...this.list.children].reverse().find((item) => !item.hidden && item.classList.contains("hx-line"));
    this.latest.textContent = newest ? newest.textContent : "";
    this.empty.hidden = shown > 0;
    this.empty.textContent = id === null ? t("Nothing yet.") : t("Nothing in {ship}'s log yet.", { ship: this.names.get(id) || id });
    this.count.textContent = id === null ? "· " + tn("{n} line", "{n} lines", this.lines.length)
      : "· " + tn("{ship}: {n} line", "{ship}: {n} lines", shown, { ship: this.names.get(id) || id });
  }
}
