"""OTA state grading (vita/grading/ota.py): booked lines compared one to one (product,
quantity, date when both records have one), pinned by their effect."""

from __future__ import annotations

from lifebench.vita.grading.ota import Line, same_lines


def test_an_undated_line_fits_a_dated_one_but_two_dates_must_agree() -> None:
    assert same_lines([Line("R1", "2025-06-02", 1)], [Line("R1", "", 1)])
    assert not same_lines([Line("R1", "2025-06-02", 1)], [Line("R1", "2025-06-03", 1)])
    assert not same_lines([Line("R1", "2025-06-02", 2)], [Line("R1", "2025-06-02", 1)])
    assert not same_lines([Line("R1", "", 1)], [Line("R1", "", 1), Line("R2", "", 1)])
