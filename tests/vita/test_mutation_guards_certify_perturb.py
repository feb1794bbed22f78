"""The near-miss perturbations (vita/certify/perturb.py), pinned by their effect on synthetic
tasks of our own in English and Chinese: what each perturbation of ``PERTURBATIONS`` changes in
the oracle's plan (the changed call, argument and value; the call left out or put in), or that the
task gives it nothing to get wrong (None); and the rules of the helpers that choose the wrong
value (stock, bookable days, another provider or date, the price due after a date change, an
address far enough away)."""

from __future__ import annotations

import pytest
from _certify_cases import cases, changes

from lifebench.vita.agents.oracle import oracle_plan
from lifebench.vita.certify import PERTURBATIONS, PlanContext

CASES = cases()

#: name → (perturbation, its changes or None), in ``PERTURBATIONS`` order.
EXPECTED: dict[str, list[tuple[str, list[str] | None]]] = {
    "delivery-en": [
        ("quantity", ["@1 create_delivery_order: product_cnts [1] -> [2]"]),
        ("attribute", ["@1 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"]),
        ("product", None),
        (
            "store",
            [
                "@1 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"
            ],
        ),
        ("unpaid", ["-2 pay_delivery_order"]),
        ("time", None),
        (
            "address",
            [
                "@1 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        ("note_omitted", ["@3 create_delivery_order: note 'No straw' -> -"]),
        ("note_negated", ["@3 create_delivery_order: note 'No straw' -> 'straw'"]),
        (
            "extra_order",
            [
                "+4 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+4 cancel_delivery_order(order_id='O2')"]),
        ("change_skipped", ["-0 cancel_delivery_order"]),
        ("party_size", None),
        ("date", None),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "instore-en": [
        ("quantity", None),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", None),
        (
            "time",
            ["@0 instore_modify_reservation: time '2025-06-08 10:00:00' -> '2025-06-08 13:00:00'"],
        ),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+3 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-06 15:00:00', customer_count=2)"
            ],
        ),
        ("unrequested_cancellation", ["+3 instore_cancel_order(order_id='IO1')"]),
        ("change_skipped", ["-0 instore_modify_reservation"]),
        ("party_size", ["@1 instore_reservation: customer_count 2 -> 3"]),
        (
            "date",
            ["@0 instore_modify_reservation: time '2025-06-08 10:00:00' -> '2025-06-09 10:00:00'"],
        ),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "ota-en": [
        ("quantity", None),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", ["-1 pay_train_order"]),
        ("time", None),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            ["+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0605', user_id='U1')"],
        ),
        ("unrequested_cancellation", ["+4 cancel_hotel_order(order_id='OH', user_id='U1')"]),
        ("change_skipped", ["-0 modify_train_order", "-1 pay_train_order"]),
        ("party_size", None),
        ("date", ["@0 modify_train_order: new_date '2025-06-07' -> '2025-06-06'"]),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "cross-en": [
        ("quantity", ["@0 create_delivery_order: product_cnts [1] -> [2]"]),
        ("attribute", ["@0 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"]),
        (
            "product",
            [
                "@0 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['Mild Spicy'] -> ['']"
            ],
        ),
        (
            "store",
            [
                "@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"
            ],
        ),
        ("unpaid", ["-1 pay_delivery_order"]),
        ("time", ["@2 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-05 18:00:00'"]),
        (
            "address",
            [
                "@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+5 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+5 cancel_delivery_order(order_id='O1')"]),
        ("change_skipped", ["-3 modify_train_order", "-4 pay_train_order"]),
        ("party_size", ["@2 instore_reservation: customer_count 2 -> 3"]),
        ("date", ["@2 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-06 15:00:00'"]),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "delivery_changes-en": [
        ("quantity", None),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", ["-1 pay_delivery_order"]),
        ("time", None),
        ("address", None),
        ("note_omitted", ["-0 modify_delivery_order"]),
        ("note_negated", ["@0 modify_delivery_order: note 'No peanuts' -> 'peanuts'"]),
        (
            "extra_order",
            [
                "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+2 cancel_delivery_order(order_id='O1')"]),
        ("change_skipped", ["-0 modify_delivery_order"]),
        ("party_size", None),
        ("date", None),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "delivery_asap-en": [
        ("quantity", ["@0 create_delivery_order: product_cnts [1] -> [2]"]),
        ("attribute", None),
        ("product", ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']"]),
        (
            "store",
            ["@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']"],
        ),
        ("unpaid", ["-1 pay_delivery_order"]),
        ("time", None),
        (
            "address",
            [
                "@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+2 cancel_delivery_order(order_id='O2')"]),
        ("change_skipped", None),
        ("party_size", None),
        ("date", None),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "instore_edges-en": [
        ("quantity", None),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", None),
        ("time", ["@0 instore_book: time '2025-06-06 19:00:00' -> '2025-06-06 22:00:00'"]),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+1 instore_book(user_id='U1', shop_id='RS', time='2025-06-07 19:00:00', customer_count=4)"
            ],
        ),
        ("unrequested_cancellation", ["+1 instore_cancel_order(order_id='IO1')"]),
        ("change_skipped", None),
        ("party_size", ["@0 instore_book: customer_count 4 -> 5"]),
        ("date", ["@0 instore_book: time '2025-06-06 19:00:00' -> '2025-06-07 19:00:00'"]),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "ota_more-en": [
        ("quantity", ["@2 create_train_order: quantity 2 -> 1"]),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", ["-1 pay_hotel_order"]),
        ("time", None),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            ["+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0605', user_id='U1')"],
        ),
        ("unrequested_cancellation", ["+4 cancel_train_order(order_id='OT', user_id='U1')"]),
        ("change_skipped", None),
        ("party_size", None),
        ("date", ["@0 create_hotel_order: room_id 'H1_K_0607' -> 'H1_K_0605'"]),
        (
            "hotel",
            ["@0 create_hotel_order: hotel_id 'H1' -> 'H2'; room_id 'H1_K_0607' -> 'H2_K_0607'"],
        ),
        ("attraction", None),
        ("flight", None),
        (
            "train",
            ["@2 create_train_order: train_id 'T1' -> 'T2'; seat_id 'T1_2C_0606' -> 'T2_2C_0606'"],
        ),
    ],
    "delivery-zh": [
        ("quantity", ["@1 create_delivery_order: product_cnts [1] -> [2]"]),
        ("attribute", ["@1 create_delivery_order: attributes ['微辣'] -> ['特辣']"]),
        ("product", None),
        (
            "store",
            [
                "@1 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"
            ],
        ),
        ("unpaid", ["-2 pay_delivery_order"]),
        ("time", None),
        (
            "address",
            [
                "@1 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        ("note_omitted", ["@3 create_delivery_order: note '不要吸管' -> -"]),
        ("note_negated", ["@3 create_delivery_order: note '不要吸管' -> '吸管'"]),
        (
            "extra_order",
            [
                "+4 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+4 cancel_delivery_order(order_id='O2')"]),
        ("change_skipped", ["-0 cancel_delivery_order"]),
        ("party_size", None),
        ("date", None),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "instore-zh": [
        ("quantity", None),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", None),
        (
            "time",
            ["@0 instore_modify_reservation: time '2025-06-08 10:00:00' -> '2025-06-08 13:00:00'"],
        ),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+3 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-06 15:00:00', customer_count=2)"
            ],
        ),
        ("unrequested_cancellation", ["+3 instore_cancel_order(order_id='IO1')"]),
        ("change_skipped", ["-0 instore_modify_reservation"]),
        ("party_size", ["@1 instore_reservation: customer_count 2 -> 3"]),
        (
            "date",
            ["@0 instore_modify_reservation: time '2025-06-08 10:00:00' -> '2025-06-09 10:00:00'"],
        ),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "ota-zh": [
        ("quantity", None),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", ["-1 pay_train_order"]),
        ("time", None),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            ["+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0605', user_id='U1')"],
        ),
        ("unrequested_cancellation", ["+4 cancel_hotel_order(order_id='OH', user_id='U1')"]),
        ("change_skipped", ["-0 modify_train_order", "-1 pay_train_order"]),
        ("party_size", None),
        ("date", ["@0 modify_train_order: new_date '2025-06-07' -> '2025-06-06'"]),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "cross-zh": [
        ("quantity", ["@0 create_delivery_order: product_cnts [1] -> [2]"]),
        ("attribute", ["@0 create_delivery_order: attributes ['微辣'] -> ['特辣']"]),
        (
            "product",
            ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['微辣'] -> ['']"],
        ),
        (
            "store",
            [
                "@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"
            ],
        ),
        ("unpaid", ["-1 pay_delivery_order"]),
        ("time", ["@2 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-05 18:00:00'"]),
        (
            "address",
            [
                "@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+5 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+5 cancel_delivery_order(order_id='O1')"]),
        ("change_skipped", ["-3 modify_train_order", "-4 pay_train_order"]),
        ("party_size", ["@2 instore_reservation: customer_count 2 -> 3"]),
        ("date", ["@2 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-06 15:00:00'"]),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "delivery_changes-zh": [
        ("quantity", None),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", ["-1 pay_delivery_order"]),
        ("time", None),
        ("address", None),
        ("note_omitted", ["-0 modify_delivery_order"]),
        ("note_negated", ["@0 modify_delivery_order: note '不要花生' -> '花生'"]),
        (
            "extra_order",
            [
                "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+2 cancel_delivery_order(order_id='O1')"]),
        ("change_skipped", ["-0 modify_delivery_order"]),
        ("party_size", None),
        ("date", None),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "delivery_asap-zh": [
        ("quantity", ["@0 create_delivery_order: product_cnts [1] -> [2]"]),
        ("attribute", None),
        ("product", ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']"]),
        (
            "store",
            ["@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']"],
        ),
        ("unpaid", ["-1 pay_delivery_order"]),
        ("time", None),
        (
            "address",
            [
                "@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+2 cancel_delivery_order(order_id='O2')"]),
        ("change_skipped", None),
        ("party_size", None),
        ("date", None),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "instore_edges-zh": [
        ("quantity", None),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", None),
        ("time", ["@0 instore_book: time '2025-06-06 19:00:00' -> '2025-06-06 22:00:00'"]),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+1 instore_book(user_id='U1', shop_id='RS', time='2025-06-07 19:00:00', customer_count=4)"
            ],
        ),
        ("unrequested_cancellation", ["+1 instore_cancel_order(order_id='IO1')"]),
        ("change_skipped", None),
        ("party_size", ["@0 instore_book: customer_count 4 -> 5"]),
        ("date", ["@0 instore_book: time '2025-06-06 19:00:00' -> '2025-06-07 19:00:00'"]),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "ota_more-zh": [
        ("quantity", ["@2 create_train_order: quantity 2 -> 1"]),
        ("attribute", None),
        ("product", None),
        ("store", None),
        ("unpaid", ["-1 pay_hotel_order"]),
        ("time", None),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            ["+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0605', user_id='U1')"],
        ),
        ("unrequested_cancellation", ["+4 cancel_train_order(order_id='OT', user_id='U1')"]),
        ("change_skipped", None),
        ("party_size", None),
        ("date", ["@0 create_hotel_order: room_id 'H1_K_0607' -> 'H1_K_0605'"]),
        (
            "hotel",
            ["@0 create_hotel_order: hotel_id 'H1' -> 'H2'; room_id 'H1_K_0607' -> 'H2_K_0607'"],
        ),
        ("attraction", None),
        ("flight", None),
        (
            "train",
            ["@2 create_train_order: train_id 'T1' -> 'T2'; seat_id 'T1_2C_0606' -> 'T2_2C_0606'"],
        ),
    ],
    "builders-delivery": [
        ("quantity", ["@1 create_delivery_order: product_cnts [1, 1, 1] -> [2, 1, 1]"]),
        (
            "attribute",
            [
                "@1 create_delivery_order: attributes ['Mild Spicy', 'Iced', 'Room Temperature'] -> ['Extra Spicy', 'Iced', 'Room Temperature']"
            ],
        ),
        (
            "product",
            [
                "@1 create_delivery_order: product_ids ['P1', 'P2', 'P2'] -> ['P6', 'P2', 'P2']; attributes ['Mild Spicy', 'Iced', 'Room Temperature'] -> ['', 'Iced', 'Room Temperature']"
            ],
        ),
        (
            "store",
            [
                "@1 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1', 'P2', 'P2'] -> ['P4', 'P5', 'P7']; attributes ['Mild Spicy', 'Iced', 'Room Temperature'] -> ['', '', '']"
            ],
        ),
        ("unpaid", ["-2 pay_delivery_order"]),
        (
            "time",
            [
                "@1 create_delivery_order: dispatch_time '2025-06-01 11:29:00' -> '2025-06-01 14:29:00'"
            ],
        ),
        (
            "address",
            [
                "@1 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        ("note_omitted", ["@1 create_delivery_order: note 'No green onions' -> -"]),
        ("note_negated", ["@1 create_delivery_order: note 'No green onions' -> 'green onions'"]),
        (
            "extra_order",
            [
                "+3 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P6'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-01 11:29:00', attributes=[''])"
            ],
        ),
        ("unrequested_cancellation", ["+3 cancel_delivery_order(order_id='O2')"]),
        ("change_skipped", ["-0 cancel_delivery_order"]),
        ("party_size", None),
        ("date", None),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
    "instore_task": [
        ("quantity", ["@2 create_instore_product_order: quantity 1 -> 2"]),
        ("attribute", None),
        ("product", ["@2 create_instore_product_order: product_id 'P_A' -> 'P_C'"]),
        (
            "store",
            [
                "@2 create_instore_product_order: shop_id 'S_SPA' -> 'S_REST'; product_id 'P_A' -> 'P_SET'"
            ],
        ),
        ("unpaid", ["-3 pay_instore_order"]),
        (
            "time",
            ["@1 instore_modify_reservation: time '2025-05-17 19:00:00' -> '2025-05-17 22:00:00'"],
        ),
        ("address", None),
        ("note_omitted", None),
        ("note_negated", None),
        (
            "extra_order",
            [
                "+9 create_instore_product_order(user_id='U1', shop_id='S_SPA', product_id='P_C', quantity=1)"
            ],
        ),
        ("unrequested_cancellation", ["+9 instore_cancel_order(order_id='O_KEEP')"]),
        ("change_skipped", ["-0 instore_cancel_order"]),
        ("party_size", ["@1 instore_modify_reservation: customer_count 3 -> 4"]),
        (
            "date",
            ["@1 instore_modify_reservation: time '2025-05-17 19:00:00' -> '2025-05-18 19:00:00'"],
        ),
        ("hotel", None),
        ("attraction", None),
        ("flight", None),
        ("train", None),
    ],
}


def test_every_task_of_the_table_is_perturbed() -> None:
    assert sorted(EXPECTED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_perturbation_of_each_task(name: str) -> None:
    task, domain, lang = CASES[name]
    plan = oracle_plan(task, domain=domain)
    got = []
    for kind, perturb in PERTURBATIONS.items():
        out = perturb(PlanContext(task, plan, lang))
        got.append((kind, None if out is None else changes(plan, out)))
    assert got == EXPECTED[name]
