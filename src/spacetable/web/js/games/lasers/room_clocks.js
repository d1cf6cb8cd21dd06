// The laser games' clocks over the table: the 3-2-1 before the round, Stellar Conflict's
// deployment countdown, and the freeze after "stop!" (or "time!") with its banner, its
// countdown to drop or discard, and the note that says what became of our frozen card.

import { t } from "../../shell/i18n.js";
import "./sheet.js";
import { $, el, showAttr, showText } from "../../shell/dom.js";
import { sounds } from "../../shell/sounds.js";
import { TICK_MS } from "../../shell/ticks.js";

export class TableClocks {
  /**
   * `page`: the room's state (match, ships; the clocks keep their timers there); `hand`:
   * our card in hand; `me()`: who we are ({role, player}).
   */
  constructor(page, hand, me) {
    this.page = page;
    this.hand = hand;
    this.me = me;
  }

  /** Seconds left of the 3-2-1 before the round (0 once it is over). */
  runupLeft() {
    return this.page.runupEnd === null ? 0 : Math.max(0, (this.page.runupEnd - performance.now()) / 1000);
  }

  /** What the 3-2-1 leads to, in words: "The deployment" (Stellar Conflict) or "The round". */
  runupWord() {
    return this.page.match?.phase === "deployment" ? t("The deployment") : t("The round");
  }

  /** The 3-2-1 before the round, big over the table (`runup`: the state's, or null). */
  showRunup(runup) {
    if (!runup || runup.seconds_left <= 0) return;
    this.page.runupEnd = performance.now() + runup.seconds_left * 1000;
    let box = $("#runup");
    if (!box) {
      box = el("div", { id: "runup", class: "runup", role: "timer", "aria-live": "assertive" },
        el("span", { class: "runup-count" }), el("span", { class: "runup-text" }), el("span", { class: "runup-hint" }));
      $("#table-wrap").append(box);
    }
    box.hidden = false;
    // A finger's way of placing, said while the count runs: on a phone the room's own words
    // for it are under the table, below the screen's edge.
    const hint = box.querySelector(".runup-hint");
    hint.hidden = !(this.hand.touchy && this.me().role === "player");
    if (!hint.hidden) showText(hint, t("Tap where your card goes, then tap the card again to put it down."));
    clearInterval(this.page.runupTimer);
    const word = this.runupWord();
    const tick = () => {
      const left = this.runupLeft();
      const count = Math.ceil(left);
      if (box.dataset.count !== String(count)) {
        sounds.tick(count <= 0); // 3, 2, 1 and a higher Go!
        box.dataset.count = String(count);
      }
      // Written when the count changes, not at each tick: each write drew the table again.
      showText(box.querySelector(".runup-count"), count > 0 ? String(count) : "Go!");
      showText(box.querySelector(".runup-text"), count > 0 ? t("{what} starts in…", { what: word }) : t("Place your cards!"));
      if (count <= 0) {
        clearInterval(this.page.runupTimer);
        this.page.runupTimer = null;
        this.page.runupEnd = null;
        setTimeout(() => { if (this.page.runupEnd === null) box.hidden = true; }, 700);
      }
    };
    tick();
    this.page.runupTimer = setInterval(tick, 100);
  }

  /**
   * Count down from `secondsLeft`, in tenths, until the next state says otherwise; it stands
   * still for `holdSeconds` first (the run-up).
   */
  startCountdown(secondsLeft, holdSeconds = 0) {
    this.page.countdownEnd = performance.now() + (secondsLeft + holdSeconds) * 1000;
    this.page.countdownFull = secondsLeft;
    $("#countdown").hidden = false;
    if (this.page.countdownTimer) return;
    const tick = () => {
      const left = Math.min(this.page.countdownFull, Math.max(0, (this.page.countdownEnd - performance.now()) / 1000));
      const box = $("#countdown");
      if (left > 0 && left <= 5 && Math.ceil(left) !== this.page.countdownTick) sounds.tick(left <= 1);
      this.page.countdownTick = Math.ceil(left);
      showText($("#countdown-seconds"), left.toFixed(1));
      box.dataset.secondsLeft = left.toFixed(1);
      box.classList.toggle("urgent", left <= 5);
      this.page.countdownTimer = left > 0 ? setTimeout(tick, TICK_MS) : null;
    };
    tick();
  }

  hideCountdown() {
    clearTimeout(this.page.countdownTimer);
    this.page.countdownTimer = null;
    this.page.countdownEnd = null;
    $("#countdown").hidden = true;
  }

  /** Remember the card we hold as the cards freeze, to say what became of it. */
  noteHeldAtStop() {
    if (this.page.stopHeld || this.me().role !== "player" || !this.hand.ship) return;
    this.page.stopHeld = { ship: this.hand.ship, name: this.page.ships[this.hand.ship]?.name || this.hand.ship };
  }

  /**
   * The freeze: `by` called stop, or (null) the countdown ran out; `seconds` are left to
   * drop or discard. The banner sits above the table, never on it.
   */
  showStop(by, seconds, restart = false) {
    const banner = $("#stop-banner");
    const you = by === this.me().player;
    $("#stop-title").textContent = by ? t("STOP!") : t("TIME!");
    $("#stop-text").textContent = !by ? t("The countdown ran out: every card in hand froze.")
      : you ? t("You placed your last card: the others' cards froze.") : t("{name} placed their last card: every card in hand froze.", { name: by });
    banner.dataset.by = by ?? "";
    banner.dataset.timer = by ? "no" : "yes";
    banner.hidden = false;
    const holding = this.me().role === "player" && Boolean(this.page.match ? this.page.match.hand : this.hand.ship) && !you;
    banner.dataset.holding = holding ? "yes" : "no";
    $("#stop-actions").hidden = !holding;
    const call = by ? t("Stop!") : t("Time!");
    $("#status").textContent = call + " " + (holding
      ? t("Drop your {ship} where it is, or discard it.", { ship: this.hand.group.dataset.name || t("card") })
      : t("Waiting for the others to drop or discard."));
    this.renderStopChoice();
    if (restart || !this.page.stopTimer) {
      clearInterval(this.page.stopTimer);
      const deadline = performance.now() + seconds * 1000;
      const tick = () => {
        const left = Math.max(0, (deadline - performance.now()) / 1000);
        const whole = Math.ceil(left);
        if (whole > 0 && whole <= 5 && $("#stop-countdown").textContent !== String(whole)) sounds.tick(whole <= 1);
        showText($("#stop-countdown"), String(whole));
        banner.dataset.secondsLeft = left.toFixed(1);
        $("#stop-bar-fill").style.transform = `scaleX(${seconds > 0 ? left / seconds : 0})`;
        banner.classList.toggle("urgent", left <= 3);
        this.renderStopChoice(whole);
        if (left <= 0) clearInterval(this.page.stopTimer);
      };
      tick();
      this.page.stopTimer = setInterval(tick, 100);
    }
  }

  /** What happens if we do nothing, and whether the card may drop where it froze. */
  renderStopChoice(secondsLeft = Number($("#stop-countdown").textContent)) {
    const banner = $("#stop-banner");
    const what = $("#stop-what");
    const name = this.hand.group.dataset.name || t("card");
    const reason = this.hand.ship ? this.hand.blockedBy() : null;
    let text;
    if (banner.dataset.holding !== "yes") {
      text = t("The battle starts when everyone has decided, at most {n} s from now.", { n: secondsLeft });
    } else if (reason) {
      text = t("Your {ship} cannot drop where it froze ({reason}): discard it, or it is discarded in {n} s.", { ship: name, reason, n: secondsLeft });
    } else {
      text = t("Do nothing and your {ship} is discarded in {n} s.", { ship: name, n: secondsLeft });
    }
    showText(what, text);
    // Drop stays on offer: the server has the last word on where a card may lie.
    showAttr($("#drop-here"), "title", reason ? t("can't drop here: {reason}", { reason }) : "");
  }

  hideStop() {
    clearInterval(this.page.stopTimer);
    this.page.stopTimer = null;
    $("#stop-banner").hidden = true;
  }

  /** Say, beside the table, that our frozen card was discarded (`discarded`: its ship key). */
  tellDiscard(discarded) {
    const held = this.page.stopHeld;
    if (!held || !discarded || discarded !== held.ship) return;
    const note = $("#stop-note");
    const text = this.page.discardAsked ? t("You discarded your {ship}.", { ship: held.name })
      : t("Time ran out: your {ship} was discarded.", { ship: held.name });
    if (note.textContent === text && !note.hidden) return;
    note.textContent = text;
    note.dataset.timedOut = this.page.discardAsked ? "no" : "yes";
    note.hidden = false;
  }
}
