"""Card sheets fill the page inside margins every home printer prints, and the crop marks
stay off the cards."""

from __future__ import annotations

import pytest

from spacetable.printing.layout import GAP_MM, MARGIN_MM, PAPERS, crop_marks, grid_for


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_eight_cards_a_page_inside_the_margins(paper: str) -> None:
    grid = grid_for(paper, 63.0, 88.0, reserve_top=10.0)
    assert grid.per_page == 8
    assert sorted((grid.page.width, grid.page.height)) == sorted(PAPERS[paper])
    slots = [grid.slot(i) for i in range(grid.per_page + 1)]
    assert slots[-1].page == 1 and (slots[-1].x, slots[-1].y) == (slots[0].x, slots[0].y)
    for slot in slots[:-1]:
        assert slot.page == 0
        assert slot.x >= MARGIN_MM and slot.x + slot.width <= grid.page.width - MARGIN_MM
        assert slot.y >= MARGIN_MM + 10.0
        assert slot.y + slot.height <= grid.page.height - MARGIN_MM
    assert slots[1].x - (slots[0].x + slots[0].width) == pytest.approx(GAP_MM)


@pytest.mark.parametrize("count", [1, 3, 8])
def test_crop_marks_line_up_with_the_card_edges_and_never_cross_a_card(count: int) -> None:
    grid = grid_for("a4", 63.0, 88.0, reserve_top=10.0)
    slots = [grid.slot(i) for i in range(count)]
    xs = {s.x for s in slots} | {s.x + s.width for s in slots}
    ys = {s.y for s in slots} | {s.y + s.height for s in slots}
    marks = crop_marks(grid, count)
    assert {a[0] for a, b in marks if a[0] == b[0]} == xs  # vertical marks, one per edge
    assert {a[1] for a, b in marks if a[1] == b[1]} == ys
    for (x1, y1), (x2, y2) in marks:
        for s in slots:
            inside_x = max(x1, x2) > s.x and min(x1, x2) < s.x + s.width
            inside_y = max(y1, y2) > s.y and min(y1, y2) < s.y + s.height
            assert not (inside_x and inside_y)


def test_a_piece_too_large_for_the_paper_is_refused() -> None:
    with pytest.raises(ValueError, match="does not fit on a4 paper"):
        grid_for("a4", 300.0, 400.0)
