"""Where things go on a printed page (pure): paper sizes, the printable margin, a grid of
equal pieces laid out to fill the pages, and the crop marks that show where to cut.

Lengths are millimetres and every position is measured from the page's **top-left**
corner, +y down the page (as the manifest says, docs/formats.md); the PDF writer
(:mod:`.pdf`) turns them into its own bottom-left frame.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "GAP_MM",
    "MARGIN_MM",
    "PAPERS",
    "Grid",
    "Page",
    "Slot",
    "crop_marks",
    "grid_for",
]

#: Paper sizes in mm, portrait (width, height).
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Nothing is printed closer than this to a paper edge: every home printer prints there
#: (most need 3 to 6.35 mm; some inkjets keep 10 mm at the bottom edge).
MARGIN_MM = 10.0
#: The space between two pieces of a grid: each is cut on its own edges, the strip
#: between them thrown away, so a cut a little off never eats into the next piece.
GAP_MM = 2.0
#: Crop marks start this far from the pieces and are this long.
_MARK_GAP_MM, _MARK_LEN_MM = 1.0, 5.0
#: ... and stop this far from the paper's edge.
_EDGE_MM = 4.0


@dataclass(frozen=True, slots=True)
class Page:
    """A page's size in mm as printed (landscape when ``width > height``)."""

    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Slot:
    """One piece's rectangle on its page: top-left corner, width and height in mm."""

    page: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Grid:
    """Equal pieces in ``columns`` x ``rows`` per page, centred on ``page``."""

    page: Page
    columns: int
    rows: int
    width: float
    height: float
    left: float
    top: float

    @property
    def per_page(self) -> int:
        """How many pieces a page holds."""
        return self.columns * self.rows

    def slot(self, index: int) -> Slot:
        """Where the ``index``-th piece goes (pages fill row by row, left to right)."""
        page, at = divmod(index, self.per_page)
        row, column = divmod(at, self.columns)
        return Slot(
            page,
            round(self.left + column * (self.width + GAP_MM), 3),
            round(self.top + row * (self.height + GAP_MM), 3),
            self.width,
            self.height,
        )

    def pages(self, count: int) -> int:
        """How many pages ``count`` pieces fill."""
        return max(1, -(-count // self.per_page))


def _fit(length: float, room: float) -> int:
    """How many pieces of ``length`` fit in ``room`` with a gap between each two."""
    return max(0, int((room + GAP_MM + 1e-9) // (length + GAP_MM)))


def grid_for(paper: str, width: float, height: float, *, reserve_top: float = 0.0) -> Grid:
    """The grid that fits the most ``width`` x ``height`` pieces (upright) on ``paper``,
    portrait or landscape (portrait on a tie), inside the margins and under a band of
    ``reserve_top`` mm kept for the page's heading. Raises ``ValueError`` if none fits."""
    best: Grid | None = None
    pw, ph = PAPERS[paper]
    for page in (Page(pw, ph), Page(ph, pw)):
        room_w = page.width - 2 * MARGIN_MM
        room_h = page.height - 2 * MARGIN_MM - reserve_top
        columns, rows = _fit(width, room_w), _fit(height, room_h)
        if columns * rows == 0:
            continue
        used_w = columns * width + (columns - 1) * GAP_MM
        used_h = rows * height + (rows - 1) * GAP_MM
        left = (page.width - used_w) / 2
        top = MARGIN_MM + reserve_top + (room_h - used_h) / 2
        grid = Grid(page, columns, rows, width, height, round(left, 3), round(top, 3))
        if best is None or grid.per_page > best.per_page:
            best = grid
    if best is None:
        raise ValueError(f"a {width:g} x {height:g} mm piece does not fit on {paper} paper")
    return best


Line = tuple[tuple[float, float], tuple[float, float]]


def crop_marks(grid: Grid, count: int) -> list[Line]:
    """The crop marks of a page holding ``count`` pieces of ``grid``: for every cutting
    line (each used column's left and right edge, each used row's top and bottom edge), a
    short line in the margin at both ends, never over a piece. Lines as ``((x1, y1),
    (x2, y2))`` in page mm."""
    columns = min(count, grid.columns)
    rows = min(-(-count // grid.columns), grid.rows)
    step_x, step_y = grid.width + GAP_MM, grid.height + GAP_MM
    xs = sorted({grid.left + c * step_x + d for c in range(columns) for d in (0, grid.width)})
    ys = sorted({grid.top + r * step_y + d for r in range(rows) for d in (0, grid.height)})
    top, bottom, left, right = ys[0], ys[-1], xs[0], xs[-1]
    near, far, edge = _MARK_GAP_MM, _MARK_GAP_MM + _MARK_LEN_MM, _EDGE_MM
    lines: list[Line] = []
    for x in xs:
        lines.append(((x, top - near), (x, max(top - far, edge))))
        lines.append(((x, bottom + near), (x, min(bottom + far, grid.page.height - edge))))
    for y in ys:
        lines.append(((left - near, y), (max(left - far, edge), y)))
        lines.append(((right + near, y), (min(right + far, grid.page.width - edge), y)))
    return lines
