// What the turn rooms (FTL, the hex fleet) share on top of every room's plumbing
// (shell/room.js): their page's frame (the table, the status bar above it, the "How to
// play" list, the end panel), the players' list with each seat's bot, stand-in and
// connection, the end (shell/endcard.js), a refusal said where the player acts, and the
// state shown again when we learn who we are. A game's turn room extends TurnRoom and
// draws its match.

import { $, clear, el, inBoardBox } from "./dom.js";
import { absence } from "./absence.js";
import { botBadgeSpan } from "./botseats.js";
import { colourOf } from "./colours.js";
import { showMatchEnd } from "./endcard.js";
import { toast } from "./notices.js";
import { RoomClient, tableSvg } from "./room.js";
import { playerName, t } from "./i18n.js";

/** What a seat's player is, as badges: a bot and its level (unless its name says it
 * already, as "beginner bot" does), a stand-in, away (`correspondence`: in a room of days
 * a turn, where being away is the rule, not a warning). */
export function seatBadges(seat, correspondence = false) {
  const badges = [];
  const level = botBadgeSpan(seat);
  if (level) badges.push(level);
  if (seat?.stand_in) badges.push(el("span", { class: "bot", text: t("a bot stands in") }));
  if (seat?.kind === "human" && !seat.connected) badges.push(absence(correspondence));
  return badges;
}

export class TurnRoom extends RoomClient {
  /** The room of ctx {roomId, params, describe} (games/index.js). */
  constructor(ctx) {
    super(ctx);
    this.state = null; // the last `state` shown
    this.result = null; // the last `result`
  }

  /**
   * The page's frame for game `name`: its title, `bodyClass` on the body, the table (an
   * SVG with `tableAttrs`, in its `.board-box`) first in the table's place, the status bar
   * above the room (`statusClass`, `before` the status line), the "How to play" list of
   * `help` (open unless `helpOpen` is false) and the end panel (this.endPanel, hidden).
   * Returns the table.
   */
  buildFrame({ name, bodyClass, tableAttrs, help, helpOpen = true, statusClass = "", before = [] }) {
    document.body.classList.add(bodyClass);
    document.title = `${name} — spacetable`;
    $("#game-name").textContent = name;
    const table = tableSvg(tableAttrs);
    $("#table-wrap").prepend(inBoardBox(table));
    // What to do now, in a bar above the table (on a phone too, where the side comes last).
    $(".room-layout").before(el("div", { class: `turn-status ${statusClass}`.trim() }, ...before, $("#status"), this.watchNote));
    const box = $(".help");
    box.open = helpOpen;
    clear(box).append(el("summary", { text: t("How to play") }), el("ul", {}, help.map((text) => el("li", { text }))));
    this.endPanel = el("section", { id: "end-panel", class: "panel", hidden: true });
    return table;
  }

  /**
   * A match its players stopped (resigned, a draw agreed, the win claimed) ended on the
   * manners' card (shell/manners.js), which takes its `result` message: the room counts the
   * match ended all the same (`this.ended`, which a game's room reads to start the next
   * battle clean: no card of the last one still turning, its log reset).
   */
  matchStopped() {
    this.ended = true;
  }

  /** Whether a state may be drawn now (not while a turn plays out, say). */
  canShowState() {
    return true;
  }

  onWelcome(message) {
    super.onWelcome(message);
    if (this.room) this.renderRoom();
    if (this.state && this.canShowState()) this.showState(this.state);
  }

  renderRoom() {
    super.renderRoom();
    this.renderPlayers();
  }

  /**
   * The players' list: a row a player in seat order, with its colour, "(you)" where
   * `isMe(player)` and the page names us, and the badges `badgesOf(player, index)`
   * (the game's) before its seat's. `rowOf(player, index)` may add {toPlay, dataset, mark}.
   */
  renderPlayerRows({ isMe, badgesOf, rowOf = () => ({}), you = true }) {
    const list = clear($("#players"));
    const seats = this.room?.seats || [];
    this.players().forEach((player, index) => {
      const me = isMe(player);
      const { toPlay = false, dataset = {}, mark = null } = rowOf(player, index);
      list.append(el("li", { class: `player${me ? " me" : ""}${toPlay ? " to-play" : ""}`, dataset: { player, ...dataset },
        style: `--team: ${colourOf(index)}` },
      el("span", { class: "swatch" }), el("span", { class: "player-name", text: me && you ? t("{player} (you)", { player }) : playerName(player) }),
      mark, ...badgesOf(player, index), ...seatBadges(seats[index], this.room?.options?.turn_hours != null)));
    });
  }

  /**
   * The end of the match on the card every game's room shows (shell/endcard.js): `how` it
   * ended in the game's words, its own `details`, `onRematch` after Rematch is sent.
   */
  showWinner(result, { how, details = [], onRematch }) {
    const matchId = this.result?.match_id || this.room?.match_id;
    showMatchEnd(this, this.endPanel, { result, matchId, how, details, onRematch });
  }

  /** Where a refusal shows beside the player's tools (`text`: "Refused: ..."). */
  showRefusal(text) {
    void text;
  }

  onRefused(message) {
    this.showRefusal(t("Refused: {reason}", { reason: message.reason }));
    toast(message.reason);
  }
}
