"""pass^k and pass@k against hand-computed values."""

from __future__ import annotations

import pytest

from lifebench.metrics import is_success, pass_at_k, pass_hat_k


@pytest.mark.parametrize(
    ("n", "c", "k", "hat", "at"),
    [
        (4, 2, 1, 0.5, 0.5),
        (4, 2, 2, 1 / 6, 5 / 6),
        (4, 2, 3, 0.0, 1.0),
        (4, 3, 2, 0.5, 1.0),
        (4, 4, 4, 1.0, 1.0),
        (5, 0, 3, 0.0, 0.0),
        (5, 1, 2, 0.0, 0.4),
        (1, 1, 1, 1.0, 1.0),
    ],
)
def test_values(n: int, c: int, k: int, hat: float, at: float) -> None:
    assert pass_hat_k(n, c, k) == pytest.approx(hat, abs=1e-12)
    assert pass_at_k(n, c, k) == pytest.approx(at, abs=1e-12)


@pytest.mark.parametrize(("n", "c", "k"), [(4, 2, 0), (4, 2, 5), (4, 5, 1), (4, -1, 1)])
def test_invalid_arguments(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_hat_k(n, c, k)
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_success_tolerance() -> None:
    assert is_success(1.0)
    assert is_success(0.9999995)
    assert is_success(1.0000005)
    assert not is_success(0.999998)
    assert not is_success(0.5)
