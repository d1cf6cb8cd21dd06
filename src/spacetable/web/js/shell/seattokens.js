// The seat tokens this browser keeps, one per room in localStorage (issue 67 item 9): a
// token taken while logged in is marked with the account's name, so that logging out
// forgets the account's seats in this browser (the server refuses an account's seat to a
// token without the account's session anyway: rooms/lobby.py), and leaves a guest's.

const tokenKey = (roomId) => `spacetable.token.${roomId}`;
const ownerKey = (roomId) => `spacetable.token-account.${roomId}`;
const OWNER_PREFIX = "spacetable.token-account.";

/** The seat token stored for `roomId`, or null. */
export function storedToken(roomId) {
  return localStorage.getItem(tokenKey(roomId));
}

/** Keep the token of our seat in `roomId` (with null, forget it); `account`: the
 * logged-in player's name, or null for a guest. */
export function storeToken(roomId, token, account) {
  if (token) {
    localStorage.setItem(tokenKey(roomId), token);
    if (account) localStorage.setItem(ownerKey(roomId), account);
    else localStorage.removeItem(ownerKey(roomId));
  } else {
    localStorage.removeItem(tokenKey(roomId));
    localStorage.removeItem(ownerKey(roomId));
  }
}

/** Forget every seat token `account` took in this browser (it logs out). */
export function forgetAccountTokens(account) {
  const rooms = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key?.startsWith(OWNER_PREFIX) && localStorage.getItem(key) === account) rooms.push(key.slice(OWNER_PREFIX.length));
  }
  for (const roomId of rooms) storeToken(roomId, null, null);
}
