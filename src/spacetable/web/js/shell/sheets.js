// Stylesheets that come with a game's code: a game's modules add their sheet to the page
// when they load, so that a page carries only the styles of the games it shows.

const sheets = new Map();

/** Add the stylesheet at `url` to the page, once; resolves when it applies (or failed). */
export function useSheet(url) {
  const href = String(url);
  if (!sheets.has(href)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    sheets.set(href, new Promise((resolve) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true });
    }));
    document.head.append(link);
  }
  return sheets.get(href);
}
