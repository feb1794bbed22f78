"""Line and order matching of the state graders (vita/grading/matching.py), pinned exactly."""

from __future__ import annotations

from lifebench.vita.grading.matching import lines_mismatch, max_matching
from lifebench.vita.grading.text import text_key


def test_the_products_message_lists_both_sides_sorted_by_product() -> None:
    iced = text_key("Iced")
    got = [("B", 1, iced), ("A", 1, iced), ("B", 2, iced)]
    want = [("B", 1, None), ("A", 2, None)]
    assert lines_mismatch(want, got) == "products {'A': 1, 'B': 3} ≠ {'A': 2, 'B': 1}"


def test_quantities_add_up_across_lines_on_both_sides() -> None:
    iced, warm = text_key("Iced"), text_key("Warm")
    want = [("P", 1, iced), ("P", 2, iced), ("P", 1, None)]
    assert lines_mismatch(want, [("P", 3, iced), ("P", 1, warm)]) is None
    assert lines_mismatch(want, [("P", 2, iced), ("P", 2, warm)]) == (
        "P: 2 of 3 with the expected attribute"
    )
    # exactly as many units with the attribute as needed is enough
    assert lines_mismatch([("P", 2, iced)], [("P", 1, iced), ("P", 1, iced)]) is None


def test_max_matching_moves_earlier_requirements_along_a_chain() -> None:
    edges = {0: {0, 1}, 1: {1, 2}, 2: {0}}
    got = max_matching([0, 1, 2], [0, 1, 2], lambda r, c: c in edges[r])
    assert got == {0: 1, 1: 2, 2: 0}


def test_max_matching_stops_when_no_augmenting_path_exists() -> None:
    edges = {0: {0, 1}, 1: {0, 1}, 2: {0, 1}}
    got = max_matching([0, 1, 2], [0, 1], lambda r, c: c in edges[r])
    assert got == {0: 0, 1: 1}
    assert max_matching([0, 1], [0], lambda r, c: True) == {0: 0}
    assert max_matching([], [0], lambda r, c: True) == {}
