// The plot a player is writing survives a reload of the page (issue 20 item 7): each change
// is kept in this tab's sessionStorage, one entry per room, under the match, the seat's
// player and the turn it was written for; the page reads it back when it shows that turn
// again. It never counts as sent: only Submit plots (the plot timer plots the draft the
// page sends the room as it changes, as before).

/** The storage key of room `roomId`'s draft. */
const keyOf = (roomId) => `spacetable.ftl.draft.${roomId}`;

/** `where` ({match, player, turn}) as one comparable string. */
const placeOf = ({ match, player, turn }) => JSON.stringify([match ?? null, player, turn]);

/** Keep `plot` (["red:R+45", ...]) as the draft of `where` in room `roomId`. */
export function keepDraft(roomId, where, plot) {
  try {
    sessionStorage.setItem(keyOf(roomId), JSON.stringify({ at: placeOf(where), plot }));
  } catch {
    // Storage refused (private mode, full): the draft lives only on the page, as before.
  }
}

/** The draft kept in room `roomId` for `where` ({match, player, turn}), or null. */
export function keptDraft(roomId, where) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(keyOf(roomId)) || "null");
    return kept && kept.at === placeOf(where) && Array.isArray(kept.plot) ? kept.plot : null;
  } catch {
    return null; // unreadable: nothing kept
  }
}
