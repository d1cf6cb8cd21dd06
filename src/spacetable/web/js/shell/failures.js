// Every page: a script that fails where nothing catches it (a request that never came back
// on a weak connection, say) is told at the top of the page, in the reader's language,
// instead of leaving a page that silently stopped half-built. Not while the page is being
// left: leaving cancels its requests, and that is no failure of the page.

import { el } from "./dom.js";
import { t } from "./i18n.js";

let leaving = false;
let notice = null;

/** Show (or update) the page's failure notice for `error`. */
function tell(error) {
  if (leaving) return;
  // A request that got no answer: the browser's own words ("Failed to fetch") are English.
  const unreached = error instanceof TypeError && /fetch|network/i.test(error.message);
  const said = unreached ? t("the server could not be reached") : (error && error.message) || String(error ?? "");
  if (!notice) {
    notice = el("p", { class: "page-failure", role: "alert" });
    document.body.prepend(notice);
  }
  notice.textContent = t("Something went wrong: {error}. Reload the page to try again.", { error: said });
}

addEventListener("pagehide", () => { leaving = true; });
addEventListener("pageshow", () => { leaving = false; }); // (back from the back-forward cache)
addEventListener("unhandledrejection", (event) => tell(event.reason));
addEventListener("error", (event) => tell(event.error || event.message));
