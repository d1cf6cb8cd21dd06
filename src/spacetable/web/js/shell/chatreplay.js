// The chat in a replay (issue 19): what was said during the match (the stored match's
// `chat`), shown in the replay's side panel up to the replay's current time. Every game's
// replay calls `replayChat(side, match)` once and `show(t)` whenever its time moves (t:
// match seconds).

import { el } from "./dom.js";
import { chatLine } from "./chat.js";
import { num, t } from "./i18n.js";

/** The chat panel of a replay, put under `side`'s player list; `show(time)` shows what was said by `time` (s). */
export function replayChat(side, match) {
  const said = (match.chat || []).filter((m) => typeof m.t === "number");
  const log = el("ol", { class: "chat-log", "aria-label": t("chat messages") });
  const empty = el("p", { class: "help chat-note", text: said.length ? t("Nothing said yet at this moment.") : t("Nobody said anything during this match.") });
  const lines = said.map((m) => {
    const time = t("{s} s", { s: num(m.t, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
    const line = chatLine(m, el("span", { class: "chat-time muted", text: ` ${time}` }));
    line.dataset.t = String(m.t);
    log.append(line);
    return line;
  });
  const panel = el("details", { class: "chat panel replay-chat", id: "chat", open: true },
    el("summary", { text: t("Chat") }), empty, log);
  const players = side.querySelector("#players");
  if (players) players.after(panel); // beside who said it
  else side.append(panel);
  const show = (time) => {
    let shown = 0;
    for (const line of lines) {
      const future = Number(line.dataset.t) > time + 1e-6;
      line.classList.toggle("future", future);
      if (!future) shown += 1;
    }
    empty.hidden = shown > 0;
  };
  show(0);
  return { show };
}
