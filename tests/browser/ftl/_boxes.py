"""Boxes of what a Faster Than Light board shows, as the page lays them out, and which overlap."""

from __future__ import annotations

from playwright.sync_api import Page


def label_boxes(page: Page, selector: str) -> list[tuple[str, dict[str, float]]]:
    """The text and the box on the page of every element ``selector`` finds."""
    found = page.locator(selector).evaluate_all(
        """els => els.map(e => { const b = e.getBoundingClientRect();
          return [e.textContent, {x: b.x, y: b.y, width: b.width, height: b.height}]; })"""
    )
    return [(text, box) for text, box in found]


def overlapping(boxes: list[tuple[str, dict[str, float]]]) -> list[tuple[str, str]]:
    """The pairs of ``boxes`` that overlap (by more than a pixel)."""
    pairs = []
    for i, (a, p) in enumerate(boxes):
        for b, q in boxes[i + 1 :]:
            w = min(p["x"] + p["width"], q["x"] + q["width"]) - max(p["x"], q["x"])
            h = min(p["y"] + p["height"], q["y"] + q["height"]) - max(p["y"], q["y"])
            if w > 1 and h > 1:
                pairs.append((a, b))
    return pairs
