"""The PDF the sheets are drawn on: reportlab's canvas, in page millimetres from the
page's top-left corner (+y down), as the layout and the manifest measure.

reportlab is a maintained PDF library that writes vector drawings at true size (a 63 mm
card prints 63 mm wide at 100 %), so no PDF is written by hand here. The ship cards'
faces are the SVG pictures of :mod:`spacetable.render.svg` (the same faces the browser
shows), read by svglib into reportlab drawings.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import lru_cache

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from spacetable.printing.layout import Page

__all__ = ["SheetWriter", "drawing_bounds"]

Point = tuple[float, float]
#: reportlab.pdfgen.canvas.FILL_EVEN_ODD (missing from its type stubs).
_FILL_EVEN_ODD = 0
_FONTS = {False: "Helvetica", True: "Helvetica-Bold"}
#: A text's size given in mm (the height of a capital is about 0.72 of it).
_PT_PER_MM = 72 / 25.4


@lru_cache(maxsize=512)
def _drawing(svg: str) -> Drawing:
    """An SVG picture as a reportlab drawing (each distinct face is read once)."""
    drawing = svg2rlg(io.BytesIO(svg.encode()))
    if drawing is None:  # pragma: no cover - our own SVG always reads
        raise ValueError("unreadable SVG")
    return drawing


def drawing_bounds(svg: str) -> tuple[float, float, float, float]:
    """What an SVG picture covers, ``(left, bottom, right, top)`` in mm from its
    bottom-left corner (as reportlab measures)."""
    x0, y0, x1, y1 = _drawing(svg).getBounds()
    return x0 / mm, y0 / mm, x1 / mm, y1 / mm


class SheetWriter:
    """Pages of a PDF drawn in millimetres from each page's top-left corner."""

    def __init__(self, title: str) -> None:
        self._buffer = io.BytesIO()
        self._canvas = Canvas(self._buffer, pageCompression=1, invariant=1)
        self._canvas.setTitle(title)
        self._canvas.setCreator("spacetable print")
        self._page: Page | None = None
        self.pages = 0

    # --- pages ---------------------------------------------------------------------------

    def new_page(self, page: Page) -> None:
        """Start a page of ``page``'s size (the one before it is finished)."""
        if self._page is not None:
            self._canvas.showPage()
        self._page = page
        self._canvas.setPageSize((page.width * mm, page.height * mm))
        self.pages += 1

    def finish(self) -> bytes:
        """The whole PDF."""
        if self._page is not None:
            self._canvas.showPage()
        self._canvas.save()
        return self._buffer.getvalue()

    def _y(self, y: float) -> float:
        """A top-down page y in mm as reportlab's bottom-up points."""
        assert self._page is not None, "new_page() first"
        return (self._page.height - y) * mm

    # --- shapes --------------------------------------------------------------------------

    def line(self, a: Point, b: Point, width: float = 0.2, colour: str = "#000000") -> None:
        """A straight line ``width`` mm wide."""
        c = self._canvas
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(width * mm)
        c.setDash()
        c.line(a[0] * mm, self._y(a[1]), b[0] * mm, self._y(b[1]))

    def dashed(self, a: Point, b: Point, width: float = 0.2, colour: str = "#000000") -> None:
        """A dashed line (cut or fold guides)."""
        c = self._canvas
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(width * mm)
        c.setDash(2 * mm, 1.5 * mm)
        c.line(a[0] * mm, self._y(a[1]), b[0] * mm, self._y(b[1]))
        c.setDash()

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str | None = None,
        stroke: str | None = "#000000",
        width: float = 0.25,
        radius: float = 0.0,
    ) -> None:
        """A rectangle with its top-left corner at ``(x, y)``."""
        c = self._canvas
        paint = self._pen(fill, stroke, width)
        c.setDash()
        args = (x * mm, self._y(y + h), w * mm, h * mm)
        if radius:
            c.roundRect(*args, radius * mm, **paint)
        else:
            c.rect(*args, **paint)

    def circle(
        self,
        x: float,
        y: float,
        r: float,
        *,
        fill: str | None = None,
        stroke: str | None = "#000000",
        width: float = 0.25,
    ) -> None:
        """A circle centred on ``(x, y)``."""
        self._canvas.circle(x * mm, self._y(y), r * mm, **self._pen(fill, stroke, width))

    def _pen(self, fill: str | None, stroke: str | None, width: float) -> dict[str, int]:
        """Take up ``fill`` and ``stroke`` (None: not painted) and the line ``width`` (mm);
        the ``fill`` / ``stroke`` flags reportlab's shapes take."""
        c = self._canvas
        if fill is not None:
            c.setFillColor(HexColor(fill))
        if stroke is not None:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(width * mm)
        return {"fill": int(fill is not None), "stroke": int(stroke is not None)}

    def polygon(
        self,
        points: Sequence[Point],
        *,
        fill: str | None = None,
        stroke: str | None = "#000000",
        width: float = 0.25,
    ) -> None:
        """A closed polygon through ``points``."""
        c = self._canvas
        path = c.beginPath()
        path.moveTo(points[0][0] * mm, self._y(points[0][1]))
        for x, y in points[1:]:
            path.lineTo(x * mm, self._y(y))
        path.close()
        if fill is not None:
            c.setFillColor(HexColor(fill))
        if stroke is not None:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(width * mm)
        c.drawPath(path, fill=int(fill is not None), stroke=int(stroke is not None))

    def panel(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        holes: Iterable[tuple[float, float, float, float]],
        fill: str,
    ) -> None:
        """A filled rectangle with rectangular ``holes`` ``(x, y, w, h)`` left unpainted
        (even-odd fill), so what is drawn in a hole has no dark edge under it."""
        c = self._canvas
        path = c.beginPath()
        for hx, hy, hw, hh in ((x, y, w, h), *holes):
            path.rect(hx * mm, self._y(hy + hh), hw * mm, hh * mm)
        c.setFillColor(HexColor(fill))
        c.drawPath(path, fill=1, stroke=0, fillMode=_FILL_EVEN_ODD)

    def squares(self, cells: Iterable[tuple[float, float, float]], colour: str) -> None:
        """Filled squares ``(x, y, side)`` as one path, so touching squares print as one
        shape, without the hairline seams a rasteriser leaves between separate ones."""
        c = self._canvas
        path = c.beginPath()
        for x, y, side in cells:
            path.rect(x * mm, self._y(y + side), side * mm, side * mm)
        c.setFillColor(HexColor(colour))
        c.drawPath(path, fill=1, stroke=0)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        *,
        anchor: str = "start",
        bold: bool = False,
        colour: str = "#000000",
    ) -> None:
        """``text`` on the baseline ``y``, ``size`` mm high (font size), starting,
        centred or ending at ``x`` (``anchor``: start, middle or end)."""
        c = self._canvas
        c.setFillColor(HexColor(colour))
        c.setFont(_FONTS[bold], size * _PT_PER_MM)
        draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}
        draw[anchor](x * mm, self._y(y), text)

    def paragraph(
        self, x: float, y: float, text: str, size: float, width: float, *, anchor: str = "start"
    ) -> float:
        """``text`` wrapped to ``width`` mm, its first baseline at ``y``; returns the
        baseline after its last line."""
        line = ""
        for word in text.split(" "):
            trial = f"{line} {word}".strip()
            if line and self.text_width(trial, size) > width:
                self.text(x, y, line, size, anchor=anchor)
                y += size * 1.35
                line = word
            else:
                line = trial
        self.text(x, y, line, size, anchor=anchor)
        return y + size * 1.35

    def text_width(self, text: str, size: float, *, bold: bool = False) -> float:
        """How wide ``text`` prints, in mm."""
        return float(self._canvas.stringWidth(text, _FONTS[bold], size * _PT_PER_MM)) / mm

    def svg(self, svg: str, x: float, y: float, w: float, h: float) -> None:
        """An SVG picture scaled into the box whose top-left corner is ``(x, y)``."""
        drawing = _drawing(svg)
        c = self._canvas
        c.saveState()
        c.translate(x * mm, self._y(y + h))
        c.scale(w * mm / drawing.width, h * mm / drawing.height)
        renderPDF.draw(drawing, c, 0, 0)
        c.restoreState()
