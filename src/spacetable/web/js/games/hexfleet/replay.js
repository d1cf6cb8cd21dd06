// The replay of a stored hex fleet battle: the board, the stored frames stepped through
// (play / pause / step back and forward / go to a turn), each step's cards, the ships' logs
// and the result.
//
// API:
//   export async function showHexReplay(page, match)
//     page: the replay page's elements ({table, side} or the document: it looks up
//       #table, #players, #replay-log as replay.html has them).
//     match: GET /api/matches/{id} of a hexfleet match (its `events` are the frames: the
//       opening frame with action null, then one per action; `result`).
