// The game's sounds, synthesized with WebAudio (no audio files): a card placed, a laser
// fired (lower and longer the stronger it is), a hit, a shield, an explosion, a countdown
// tick. A mute button remembers its choice in localStorage. Browsers keep audio off until
// the page has had a gesture: until then sounds are skipped quietly, never queued.
// A running audio context keeps the device's audio thread working (a phone's battery) even
// in silence: the context rests a few seconds after the last sound ends, or at once when
// muted, and wakes for the next sound.

import { t } from "./i18n.js";
import { el } from "./dom.js";

const KEY = "spacetable.muted";
/** How long the audio context stays awake after its last sound ends (ms). */
const REST_AFTER_MS = 3000;
let context = null;
/** Whether this page put the context to rest (a browser's own hold is not ours to lift). */
let resting = false;
let restTimer = 0;
/** When the last sound scheduled ends, on the context's clock. */
let quietAt = 0;

/** Whether the player muted the sounds (remembered in this browser). */
export function isMuted() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

/** Mute or unmute, remembered in this browser. */
export function setMuted(muted) {
  try {
    localStorage.setItem(KEY, muted ? "1" : "0");
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
  mutedHere = muted;
  if (muted) rest();
  // The page's own buttons are the list to update: a module-level list of them would keep
  // every button ever made alive, and with it the battle whose controls held it.
  for (const button of document.querySelectorAll(".mute-button")) showMuted(button, muted);
}

let mutedHere = isMuted();

/** The audio context once a gesture has allowed it; null before (or without WebAudio). */
function audio() {
  if (mutedHere) return null;
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context || !navigator.userActivation?.hasBeenActive) return null;
    try {
      context = new Context();
    } catch {
      return null;
    }
    // What a test can tell of the context without a loudspeaker: running or suspended.
    const root = document.documentElement;
    root.dataset.audio = context.state;
    context.addEventListener("statechange", () => { root.dataset.audio = context.state; });
  }
  if (resting || context.state === "suspended") {
    context.resume().catch(() => {}); // after a rest still under way, if one is
    // A context that rested plays what is scheduled on it as soon as its clock runs again.
    if (resting) {
      resting = false;
      return context;
    }
  }
  return context.state === "running" ? context : null;
}

/** Put the context to rest now (no sound is playing, or the sounds were muted). */
function rest() {
  clearTimeout(restTimer);
  if (context?.state !== "running") return;
  resting = true;
  context.suspend().catch(() => {});
}

/** Rest the context `REST_AFTER_MS` after its last sound, one that ends at `end` or an
 * earlier one that ends later (times on the context's clock). */
function restAfter(ac, end) {
  quietAt = Math.max(quietAt, end);
  clearTimeout(restTimer);
  restTimer = setTimeout(rest, Math.max(0, quietAt - ac.currentTime) * 1000 + REST_AFTER_MS);
}

/** A tone from `from` to `to` Hz over `length` s, of `type`, at `volume`, `delay` s from now. */
function tone({ from, to = from, length = 0.15, type = "sine", volume = 0.15, delay = 0 }) {
  const ac = audio();
  if (!ac) return;
  const t = ac.currentTime + delay;
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, t);
  osc.frequency.exponentialRampToValueAtTime(Math.max(20, to), t + length);
  gain.gain.setValueAtTime(volume, t);
  gain.gain.exponentialRampToValueAtTime(0.001, t + length);
  osc.connect(gain).connect(ac.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
  restAfter(ac, t + length + 0.02);
}

/** A burst of filtered noise (`length` s), for explosions and impacts. */
function noise({ length = 0.5, volume = 0.3, cutoff = 900, delay = 0 }) {
  const ac = audio();
  if (!ac) return;
  const t = ac.currentTime + delay;
  const samples = Math.floor(ac.sampleRate * length);
  const buffer = ac.createBuffer(1, samples, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / samples) ** 2;
  const source = ac.createBufferSource();
  source.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.setValueAtTime(cutoff, t);
  filter.frequency.exponentialRampToValueAtTime(80, t + length);
  const gain = ac.createGain();
  gain.gain.setValueAtTime(volume, t);
  source.connect(filter).connect(gain).connect(ac.destination);
  source.start(t);
  restAfter(ac, t + length);
}

/**
 * Count a sound played (not muted) on the page's root element, `data-sound-your-turn="2"`:
 * what a test can hear of a chime without a loudspeaker.
 */
function counted(name) {
  if (mutedHere) return false;
  const data = document.documentElement.dataset;
  data[name] = String(Number(data[name] || 0) + 1);
  return true;
}

export const sounds = {
  /** A card put down on the table. */
  place() {
    tone({ from: 220, to: 110, length: 0.09, type: "triangle", volume: 0.25 });
    noise({ length: 0.06, volume: 0.12, cutoff: 2500 });
  },
  /** A laser of `power` (1-3) fired. */
  fire(power = 1) {
    const p = Math.max(1, Math.min(3, power));
    tone({ from: 1500 - p * 250, to: 180 + p * 40, length: 0.16 + p * 0.06, type: "sawtooth", volume: 0.05 + p * 0.015 });
  },
  /** A laser that did damage. */
  hit() {
    tone({ from: 320, to: 90, length: 0.14, type: "square", volume: 0.08 });
    noise({ length: 0.12, volume: 0.15, cutoff: 1800 });
  },
  /** A shield blocked a laser. */
  shield() {
    tone({ from: 900, to: 1300, length: 0.12, type: "sine", volume: 0.1 });
  },
  /** A ship blew up. */
  explosion() {
    noise({ length: 0.9, volume: 0.45, cutoff: 1200 });
    tone({ from: 110, to: 40, length: 0.6, type: "sine", volume: 0.3 });
  },
  /** Your turn came while the tab was hidden (shell/notify.js): two rising notes. */
  yourTurn() {
    if (!counted("soundYourTurn")) return;
    tone({ from: 660, length: 0.12, type: "sine", volume: 0.12 });
    tone({ from: 990, length: 0.18, type: "sine", volume: 0.12, delay: 0.14 });
  },
  /** A player went away (his connection dropped): two falling notes. */
  away() {
    tone({ from: 660, to: 620, length: 0.12, type: "triangle", volume: 0.12 });
    tone({ from: 440, to: 400, length: 0.18, type: "triangle", volume: 0.12, delay: 0.15 });
  },
  /** A draw offered to you: two rising notes. */
  offer() {
    tone({ from: 520, length: 0.1, type: "sine", volume: 0.12 });
    tone({ from: 780, length: 0.14, type: "sine", volume: 0.12, delay: 0.12 });
  },
  /** A second of the countdown; `last` for the final ones. */
  tick(last = false) {
    tone({ from: last ? 1320 : 880, length: 0.07, type: "square", volume: 0.05 });
  },
};

/** Show on `button` whether the sounds are `muted`. */
function showMuted(button, muted) {
  button.textContent = muted ? t("♪ Sound off") : t("♪ Sound on");
  button.classList.toggle("muted", muted);
  button.setAttribute("aria-pressed", muted ? "true" : "false");
  button.title = muted ? t("turn the sounds on") : t("turn the sounds off");
}

/**
 * A mute button (a speaker that toggles), its state remembered; several on a page stay in
 * step. Nothing outside the button refers to it: once taken off the page it is freed.
 */
export function muteButton() {
  const button = el("button", { type: "button", class: "mute-button secondary" });
  button.addEventListener("click", () => setMuted(!mutedHere));
  showMuted(button, mutedHere);
  return button;
}
