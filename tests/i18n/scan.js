// Run in a page by tests/i18n/_french.py: its visible words, raw places and overflowing boxes
// (`within`, a CSS selector or null: only those inside the elements it matches; whether the
// page scrolls sideways is always checked).
((within) => {
  const outside = (el) => Boolean(within) && !el.closest(within);
  const skip = (el) => outside(el) || el.closest('[translate="no"], script, style, code, kbd, svg, [hidden], [aria-hidden="true"]');
  const visible = (el) => {
    if (!el || skip(el)) return false;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const where = node.parentElement;
    if (text && visible(where)) texts.push(`${text}\u0000${where.tagName.toLowerCase()}.${where.className}`);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (skip(el)) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  for (const option of document.querySelectorAll("select option")) {
    if (!skip(option) && visible(option.parentElement)) texts.push(option.textContent.trim());
  }
  if (!within) texts.push(document.title);
  const boxes = "button, .button, label, h1, h2, h3, th, td, li, p, select, summary, legend, .panel";
  const overflowing = [];
  for (const el of document.querySelectorAll(boxes)) {
    if (!visible(el)) continue;
    const shown = el.getBoundingClientRect();
    if (shown.width <= 2 || shown.height <= 2) continue; // visually hidden: for screen readers only
    const style = getComputedStyle(el);
    if (style.textOverflow === "ellipsis" || ["auto", "scroll"].includes(style.overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      overflowing.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.className}: ${el.textContent.trim().slice(0, 60)}`);
    }
  }
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) overflowing.push(`the page scrolls sideways (${page.scrollWidth} > ${page.clientWidth})`);
  return { texts, overflowing, lang: page.lang };
})
