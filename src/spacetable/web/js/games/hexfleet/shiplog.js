// Hex fleet ships' logs: the battle told in words, and any one ship's log (the rulebook's
// "ship's log": the lines that name that ship).
//
// API (kept stable: the room page and the replay import it):
//   export class ShipLogs {
//     constructor(container, { onSelect } = {})
//       container: an element the panel is built in (a panel on a desktop, a drawer that
//       opens and closes on a phone). onSelect(shipId | null) is called when the player
//       picks a ship in the chooser (null: every ship).
//     add(lines)     append log lines ([{turn, ships, text}], as in a frame's `log` delta
//                    or the tail of the view's `log`), newest at the bottom.
//     reset(lines)   replace the whole log (a late joiner's view, a replay's step back).
//     select(shipId | null)   show only that ship's lines (null: all); also sets the chooser.
//     ships(list)    tell the chooser the ships' names ([{id, name, owner}]).
//   }
