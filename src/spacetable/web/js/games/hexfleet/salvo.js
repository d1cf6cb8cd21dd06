// Hex fleet cards on screen: the playing cards one action turned, as real card faces that
// flip face up one by one.
//
// API (kept stable: the room page and the replay import it):
//   export async function showCards(container, frame, { speed = 1, sound = true } = {})
//     container: an element the cards are drawn into (emptied first).
//     frame: one `acted` frame (or a stored replay frame): uses frame.events (the `shields`,
//       `hail`, `fire`, `damage` and `reshuffle` events) and frame.ships (names, classes,
//       shield points), and frame.deck ({pile, discards, reshuffles}) for the deck indicator.
//     Lays out, for a salvo, the fire cards (those whose suit got through the shields lit,
//     the others dimmed) with a caption, then one damage card per hit labelled with the
//     system it strikes and what is left (a club set aside: "♣ drawn again"); for a shields
//     try or a hail, the two cards and whether they matched. Resolves when every card is
//     face up (at once if the frame turned no card). `speed` scales the pace (2 = twice as
//     fast); prefers-reduced-motion shows the cards without flipping.
//   export function cardFace(name) -> HTMLElement: one card face ("10S", "KH").
