// /login and /signup: one form each (its `data-action`), posted as JSON to the accounts
// API; on success the browser holds the session cookie and goes back where it came from
// (`?next=`, a path of this site), else to the lobby.

import { t, tn } from "../shell/i18n.js"; // (and the page's language switch)
import { $, postJSON } from "../shell/dom.js";
import { refusalText } from "../shell/phrase.js";
import { nextPath } from "../shell/account.js";

const ROUTES = { login: "/api/session", signup: "/api/accounts" };

/** The characters of `name` a name may not hold, each once, as the server lists them
 * (store/names.py `odd_characters`): one that cannot be seen written "U+200B". */
function oddCharacters(name) {
  const found = [];
  for (const c of name) {
    if (/[\p{L}\p{N} _-]/u.test(c)) continue;
    const code = `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    const said = /[\p{C}\p{Z}\s]/u.test(c) ? code : c;
    if (!found.includes(said)) found.push(said);
  }
  return found;
}

/** A new account's name and password as the server will check them (store/names.py,
 * store/accounts.py: 3 to 20 letters, digits, spaces, - or _; 8 to 256 characters), in
 * the server's sentences: every problem found, so that a sign-up is not refused one field
 * at a time. The server still decides (a reserved name, one like an account's: its
 * refusal shows when these pass). */
function signupProblems() {
  const name = $("#account-name").value.normalize("NFKC").trim();
  const password = $("#account-password").value;
  const [nameLength, passwordLength] = [[...name].length, [...password].length]; // characters, as Python counts them
  const odd = oddCharacters(name);
  const found = [];
  if (!name) found.push(t("Type a name."));
  else if (nameLength < 3 || nameLength > 20) {
    found.push(tn("A name has 3 to 20 characters: yours has {n}.", "A name has 3 to 20 characters: yours has {n}.", nameLength, { n: nameLength }));
  } else if (odd.length) {
    found.push(tn("A name holds only letters, digits, spaces, - and _: “{chars}” is not allowed.", "A name holds only letters, digits, spaces, - and _: “{chars}” are not allowed.", odd.length, { chars: odd.join(" ") }));
  }
  if (passwordLength < 8) {
    found.push(tn("A password has at least 8 characters: yours has {n}.", "A password has at least 8 characters: yours has {n}.", passwordLength, { n: passwordLength }));
  }
  return found;
}

async function submit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const error = $("#account-error");
  const button = $("#account-submit");
  error.hidden = true;
  const problems = form.dataset.action === "signup" ? signupProblems() : [];
  if (problems.length) {
    error.textContent = problems.join(" ");
    error.hidden = false;
    return;
  }
  button.disabled = true;
  try {
    await postJSON(ROUTES[form.dataset.action], {
      name: $("#account-name").value,
      password: $("#account-password").value,
    });
    location.assign(nextPath());
  } catch (failure) {
    error.textContent = refusalText(failure);
    error.hidden = false;
    button.disabled = false;
  }
}

function main() {
  const form = $("#account-form");
  form.addEventListener("submit", submit);
  // The page's HTML holds the button disabled until now: a form sent before this script
  // ran went to the address bar as a GET, the password in it (a slow phone, a quick tap).
  $("#account-submit").disabled = false;
  // The other form keeps where to go back to.
  const other = $("#other-page");
  const next = new URLSearchParams(location.search).get("next");
  if (next) other.href = `${other.pathname}?next=${encodeURIComponent(next)}`;
  $("#account-name").focus();
}

main();
