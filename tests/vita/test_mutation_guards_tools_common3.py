"""A VitaBench environment whose clock is not a 'YYYY-MM-DD HH:MM:SS' time is refused with one
message naming the task and the field (``environment.time``), in English and Chinese tasks alike."""

from __future__ import annotations

import pytest
from test_delivery_tools import make_environment_dict, make_task

from lifebench.errors import InputError
from lifebench.vita.domains.delivery import DeliveryEnvironment


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("clock", ["2025/06/21 11:00", "2025年6月21日 11:00", "2025-06-21"])
def test_a_bad_clock_names_the_task_and_environment_time(language: str, clock: str) -> None:
    data = make_environment_dict()
    data["time"] = clock
    with pytest.raises(InputError) as caught:
        DeliveryEnvironment(make_task("T9", data), language)  # type: ignore[arg-type]
    assert (caught.value.task_id, caught.value.field) == ("T9", "environment.time")
    assert str(caught.value) == (
        f"task T9, field environment.time: time must be 'YYYY-MM-DD HH:MM:SS', got {clock!r}"
    )
