// The match state kept from `state_patch` messages (docs/protocol.md, "Sending what changed"):
// the room socket keeps the last `state` it has, applies each patch (RFC 6902 JSON Patch:
// `add`, `remove`, `replace`) that starts from it, and hands the pages a whole `state`, as
// if the server had sent it, so no game's page knows about patches. A patch that does not
// start from the state we have (one went missing) asks for the whole state again.

/** A JSON Pointer (RFC 6901) as its tokens: "/ships/0/at" -> ["ships", "0", "at"]. */
function tokens(pointer) {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`bad JSON pointer ${pointer}`);
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** An array index of a pointer ("-": past the end, for `add`). */
function index(array, token, op) {
  if (token === "-" && op === "add") return array.length;
  const i = Number(token);
  if (!/^(0|[1-9][0-9]*)$/.test(token) || i > array.length || (op !== "add" && i === array.length)) {
    throw new Error(`no index ${token} in a list of ${array.length}`);
  }
  return i;
}

/**
 * Apply an RFC 6902 patch of `add`, `remove` and `replace` operations to `doc`, in place
 * where it can; returns the patched document. Throws on an operation that does not fit.
 */
export function applyPatch(doc, patch) {
  for (const { op, path, value } of patch) {
    if (!["add", "remove", "replace"].includes(op)) throw new Error(`unknown patch operation ${op}`);
    const parts = tokens(path);
    if (parts.length === 0) {
      if (op === "remove") throw new Error("cannot remove the whole state");
      doc = value;
      continue;
    }
    const last = parts.pop();
    let target = doc;
    for (const token of parts) {
      target = Array.isArray(target) ? target[index(target, token, "get")] : target?.[token];
      if (target === null || typeof target !== "object") throw new Error(`no ${path} in the state`);
    }
    if (Array.isArray(target)) {
      const i = index(target, last, op);
      if (op === "add") target.splice(i, 0, value);
      else if (op === "remove") target.splice(i, 1);
      else target[i] = value;
    } else if (op === "remove" || op === "replace") {
      if (!Object.hasOwn(target, last)) throw new Error(`no ${path} in the state`);
      if (op === "remove") delete target[last];
      else target[last] = value;
    } else {
      target[last] = value;
    }
  }
  return doc;
}

/**
 * The state a socket has. `take(message)` takes a `state` or a `state_patch`: it returns
 * the whole `state` the pages get (a copy: they may change it), or null when a patch did
 * not start from ours (`resync()` was then called, once until the next whole state).
 */
export class StateKeeper {
  constructor(resync) {
    this.resync = resync;
    this.state = null; // the last state, whole, as the server numbered it (`seq`)
    this.asked = false; // a resync is on its way
  }

  /** The socket closed: a new one starts with a whole state. */
  reset() {
    this.state = null;
    this.asked = false;
  }

  take(message) {
    if (message.type === "state") {
      this.state = message;
      this.asked = false;
      return structuredClone(message);
    }
    if (this.state === null || this.state.seq !== message.from) return this.missed();
    try {
      this.state = applyPatch(this.state, message.patch);
    } catch {
      this.state = null;
      return this.missed();
    }
    this.state.seq = message.to;
    return structuredClone(this.state);
  }

  missed() {
    if (!this.asked) {
      this.asked = true;
      this.resync();
    }
    return null;
  }
}
