/**
 * Panels of the hex fleet's room page that need nothing of the room: the board's legend,
 * the ships off the board, and the phone's bar of the active ship's buttons docked at the
 * bottom.
 */
import { $, el } from "../../shell/dom.js";
import { t } from "../../shell/i18n.js";
import { LEGEND } from "./room_words.js";

/** The legend: what the board's gauges and arcs mean. */
export function legendPanel() {
  const legend = LEGEND();
  return el("section", { id: "hex-legend", class: "panel hex-legend", "aria-label": t("what the board shows") },
    el("h2", { text: legend.title }),
    el("ul", {}, legend.gauges.map(([colour, words]) => el("li", {},
      el("span", { class: "gauge-swatch", style: `--swatch: ${colour}`, "aria-hidden": "true" }), words)),
    el("li", {}, el("span", { class: "arc-swatch", "aria-hidden": "true" }), legend.arc)));
}

/** The ships off the board (jumped out, gone or wrecked): the room fills its list. */
export function offBoardPanel() {
  return el("section", { id: "off-board", class: "panel off-board", hidden: true },
    el("h2", { text: t("Off the board") }), el("ul", {}));
}

/**
 * On a phone the active ship's buttons (in `controls`, the controls' panel) are a bar fixed
 * along the bottom of the screen, on the chat's bar (hexfleet.css): tell the page its height
 * (--hex-bar), which the page keeps free below its content as it does the chat's; 0 while no
 * ship of ours is activated.
 */
export function dockActionBar(controls) {
  const measure = () => {
    const bar = $("#hex-controls .action-bar");
    const docked = bar && bar.getClientRects().length > 0 && getComputedStyle(bar).position === "fixed";
    document.documentElement.style.setProperty("--hex-bar", `${docked ? Math.ceil(bar.getBoundingClientRect().height) : 0}px`);
  };
  // The bar is drawn again with every state: watch the panel's contents and its size.
  new MutationObserver(measure).observe(controls, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
  new ResizeObserver(measure).observe(controls);
  window.matchMedia("(max-width: 820px)").addEventListener("change", measure);
}
