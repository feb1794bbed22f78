"""Certify's generated near misses and variations (vita/certify/generate.py), pinned by their
effect on synthetic tasks of our own in English and Chinese: every candidate's field class, kind,
target and exactly what it changes in the oracle's plan (the changed call, argument and value;
the call left out; the call put in), in order — so a class of near miss that stops being
generated, one more or one fewer per record, a perturbation that changes nothing or the wrong
value, or a variation in the wrong language fails here. Every candidate below was read and is a
real near miss (or a correct-but-unusual plan); certify's verdicts on the added tasks are checked
at the end."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _certify_cases import EXTRA, Lang, cases, changes

from lifebench.vita.agents.oracle import oracle_plan
from lifebench.vita.certify import PlanContext, certify_task, near_misses, variations

CASES = cases()

#: name → every near miss, then every variation: (field, kind, target, must_pass, changes).
EXPECTED: dict[str, list[tuple[str, str, str, bool, list[str]]]] = {
    "delivery-en": [
        (
            "products",
            "quantity",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: product_cnts [1] -> [2]"],
        ),
        (
            "products",
            "quantity",
            "call 3 create_delivery_order",
            False,
            ["@3 create_delivery_order: product_cnts [2] -> [1]"],
        ),
        (
            "attribute",
            "attribute",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"],
        ),
        (
            "attribute",
            "attribute",
            "call 3 create_delivery_order",
            False,
            ["@3 create_delivery_order: attributes ['Iced'] -> ['Warm']"],
        ),
        (
            "store",
            "store",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"
            ],
        ),
        (
            "store",
            "store",
            "call 3 create_delivery_order",
            False,
            [
                "@3 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P2'] -> ['P3']; attributes ['Iced'] -> ['']"
            ],
        ),
        (
            "address",
            "address",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "address",
            "address",
            "call 3 create_delivery_order",
            False,
            [
                "@3 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "note",
            "note_omitted",
            "call 3 create_delivery_order",
            False,
            ["@3 create_delivery_order: note 'No straw' -> -"],
        ),
        (
            "note",
            "note_negated",
            "call 3 create_delivery_order",
            False,
            ["@3 create_delivery_order: note 'No straw' -> 'straw'"],
        ),
        (
            "note",
            "unasked_note",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: note - -> 'Please deliver after 22:00'"],
        ),
        ("status", "unpaid", "call 2 pay_delivery_order", False, ["-2 pay_delivery_order"]),
        (
            "status",
            "change_skipped",
            "call 0 cancel_delivery_order",
            False,
            ["-0 cancel_delivery_order"],
        ),
        (
            "time",
            "stated_window",
            "order T1: The noodle order should be delivered before 12:00 tomorrow",
            False,
            [
                "@1 create_delivery_order: dispatch_time '2025-06-05 05:29:00' -> '2025-06-05 11:39:00'"
            ],
        ),
        (
            "time",
            "stated_window",
            "order T1: The noodle order should be delivered before 12:00 tomorrow",
            False,
            [
                "@1 create_delivery_order: dispatch_time '2025-06-05 05:29:00' -> '2025-06-04 23:19:00'"
            ],
        ),
        (
            "time",
            "stated_window",
            "order T2: The tea order should be delivered around 15:00 the day after tomorrow",
            False,
            [
                "@3 create_delivery_order: dispatch_time '2025-06-06 14:29:00' -> '2025-06-06 15:09:00'"
            ],
        ),
        (
            "time",
            "stated_window",
            "order T2: The tea order should be delivered around 15:00 the day after tomorrow",
            False,
            [
                "@3 create_delivery_order: dispatch_time '2025-06-06 14:29:00' -> '2025-06-06 13:49:00'"
            ],
        ),
        ("unrequested", "cancelled", "O2", False, ["+4 cancel_delivery_order(order_id='O2')"]),
        ("unrequested", "paid", "O2", False, ["+4 pay_delivery_order(order_id='O2')"]),
        (
            "unrequested",
            "note_changed",
            "O2",
            False,
            ["+4 modify_delivery_order(order_id='O2', note='Please call me before delivering')"],
        ),
        ("unrequested", "cancelled", "O3", False, ["+4 cancel_delivery_order(order_id='O3')"]),
        (
            "unrequested",
            "note_changed",
            "O3",
            False,
            ["+4 modify_delivery_order(order_id='O3', note='Please call me before delivering')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+4 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+2 get_user_all_orders()",
                "+5 get_user_all_orders()",
                "+7 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 1 create_delivery_order",
            True,
            [
                "+1 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=['Mild Spicy'])",
                "+2 cancel_delivery_order()<order_id",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 1 create_delivery_order",
            True,
            [
                "-1 create_delivery_order",
                "+1 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=['Mild Spicy'], note='Please call me before delivering')",
                "+2 modify_delivery_order(note='')<order_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 3 create_delivery_order",
            True,
            [
                "+4 cancel_delivery_order()<order_id",
                "+5 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[2], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-06 14:29:00', attributes=['Iced'], note='No straw')",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 3 create_delivery_order",
            True,
            [
                "-3 create_delivery_order",
                "+3 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[2], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-06 14:29:00', attributes=['Iced'], note='Please call me before delivering')",
                "+4 modify_delivery_order(note='No straw')<order_id",
            ],
        ),
        (
            "note",
            "same_meaning_upper_case",
            "call 3 create_delivery_order",
            True,
            ["@3 create_delivery_order: note 'No straw' -> 'NO STRAW'"],
        ),
        (
            "note",
            "same_meaning_full_width",
            "call 3 create_delivery_order",
            True,
            ["@3 create_delivery_order: note 'No straw' -> 'Ｎｏ ｓｔｒａｗ'"],
        ),
        (
            "note",
            "same_meaning_polite",
            "call 3 create_delivery_order",
            True,
            ["@3 create_delivery_order: note 'No straw' -> 'Please: No straw'"],
        ),
    ],
    "instore-en": [
        (
            "party_size",
            "party_size",
            "call 1 instore_reservation",
            False,
            ["@1 instore_reservation: customer_count 2 -> 3"],
        ),
        (
            "party_size",
            "party_size",
            "call 2 instore_book",
            False,
            ["@2 instore_book: customer_count 4 -> 5"],
        ),
        (
            "date",
            "date",
            "call 0 instore_modify_reservation",
            False,
            ["@0 instore_modify_reservation: time '2025-06-08 10:00:00' -> '2025-06-09 10:00:00'"],
        ),
        (
            "date",
            "date",
            "call 1 instore_reservation",
            False,
            ["@1 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-06 15:00:00'"],
        ),
        (
            "time",
            "time",
            "call 0 instore_modify_reservation",
            False,
            ["@0 instore_modify_reservation: time '2025-06-08 10:00:00' -> '2025-06-08 13:00:00'"],
        ),
        (
            "time",
            "time",
            "call 1 instore_reservation",
            False,
            ["@1 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-05 18:00:00'"],
        ),
        (
            "time",
            "time",
            "call 2 instore_book",
            False,
            ["@2 instore_book: time '2025-06-06 19:00:00' -> '2025-06-06 22:00:00'"],
        ),
        (
            "time",
            "change_skipped",
            "call 0 instore_modify_reservation",
            False,
            ["-0 instore_modify_reservation"],
        ),
        ("unrequested", "cancelled", "IO1", False, ["+3 instore_cancel_order(order_id='IO1')"]),
        (
            "unrequested",
            "cancelled",
            "R_KEEP",
            False,
            ["+3 instore_cancel_reservation(reservation_id='R_KEEP')"],
        ),
        (
            "unrequested",
            "moved",
            "R_KEEP",
            False,
            [
                "+3 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"
            ],
        ),
        (
            "unrequested",
            "resized",
            "R_KEEP",
            False,
            [
                "+3 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"
            ],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+3 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-06 15:00:00', customer_count=2)"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+2 get_user_all_orders()",
                "+4 get_user_all_orders()",
                "+6 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 1 instore_reservation",
            True,
            [
                "+2 instore_cancel_reservation()<reservation_id",
                "+3 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-05 15:00:00', customer_count=2)",
            ],
        ),
        (
            "time",
            "edited_after_creation",
            "call 1 instore_reservation",
            True,
            [
                "-1 instore_reservation",
                "+1 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-05 16:00:00', customer_count=2)",
                "+2 instore_modify_reservation(time='2025-06-05 15:00:00', customer_count=2)<reservation_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 instore_book",
            True,
            [
                "+3 instore_cancel_book()<book_id",
                "+4 instore_book(user_id='U1', shop_id='RS', time='2025-06-06 19:00:00', customer_count=4)",
            ],
        ),
    ],
    "ota-en": [
        (
            "date",
            "date",
            "call 0 modify_train_order",
            False,
            ["@0 modify_train_order: new_date '2025-06-07' -> '2025-06-06'"],
        ),
        (
            "date",
            "date",
            "call 2 create_hotel_order",
            False,
            ["@2 create_hotel_order: room_id 'H1_K_0606' -> 'H1_K_0605'"],
        ),
        ("status", "unpaid", "call 1 pay_train_order", False, ["-1 pay_train_order"]),
        ("status", "unpaid", "call 3 pay_hotel_order", False, ["-3 pay_hotel_order"]),
        (
            "date",
            "change_skipped",
            "call 0 modify_train_order",
            False,
            ["-0 modify_train_order", "-1 pay_train_order"],
        ),
        ("status", "change_skipped", "call 1 pay_train_order", False, ["-1 pay_train_order"]),
        (
            "unrequested",
            "cancelled",
            "OH",
            False,
            ["+4 cancel_hotel_order(order_id='OH', user_id='U1')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            ["+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0605', user_id='U1')"],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+2 get_user_all_orders()",
                "+4 get_user_all_orders()",
                "+7 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 create_hotel_order",
            True,
            [
                "+3 cancel_hotel_order(user_id='U1')<order_id",
                "+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0606', user_id='U1')",
            ],
        ),
    ],
    "cross-en": [
        (
            "products",
            "quantity",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: product_cnts [1] -> [2]"],
        ),
        (
            "products",
            "product",
            "call 0 create_delivery_order",
            False,
            [
                "@0 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['Mild Spicy'] -> ['']"
            ],
        ),
        (
            "attribute",
            "attribute",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: attributes ['Mild Spicy'] -> ['Extra Spicy']"],
        ),
        (
            "store",
            "store",
            "call 0 create_delivery_order",
            False,
            [
                "@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['Mild Spicy'] -> ['']"
            ],
        ),
        (
            "address",
            "address",
            "call 0 create_delivery_order",
            False,
            [
                "@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "party_size",
            "party_size",
            "call 2 instore_reservation",
            False,
            ["@2 instore_reservation: customer_count 2 -> 3"],
        ),
        (
            "date",
            "date",
            "call 2 instore_reservation",
            False,
            ["@2 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-06 15:00:00'"],
        ),
        (
            "date",
            "date",
            "call 3 modify_train_order",
            False,
            ["@3 modify_train_order: new_date '2025-06-07' -> '2025-06-06'"],
        ),
        (
            "note",
            "unasked_note",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: note - -> 'Please deliver after 22:00'"],
        ),
        ("status", "unpaid", "call 1 pay_delivery_order", False, ["-1 pay_delivery_order"]),
        (
            "time",
            "time",
            "call 2 instore_reservation",
            False,
            ["@2 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-05 18:00:00'"],
        ),
        ("status", "unpaid", "call 4 pay_train_order", False, ["-4 pay_train_order"]),
        (
            "date",
            "change_skipped",
            "call 3 modify_train_order",
            False,
            ["-3 modify_train_order", "-4 pay_train_order"],
        ),
        ("status", "change_skipped", "call 4 pay_train_order", False, ["-4 pay_train_order"]),
        (
            "time",
            "stated_window",
            "order T1: The noodle order should be delivered before 12:00 tomorrow",
            False,
            [
                "@0 create_delivery_order: dispatch_time '2025-06-05 05:29:00' -> '2025-06-05 11:39:00'"
            ],
        ),
        (
            "time",
            "stated_window",
            "order T1: The noodle order should be delivered before 12:00 tomorrow",
            False,
            [
                "@0 create_delivery_order: dispatch_time '2025-06-05 05:29:00' -> '2025-06-04 23:19:00'"
            ],
        ),
        ("unrequested", "cancelled", "O1", False, ["+5 cancel_delivery_order(order_id='O1')"]),
        (
            "unrequested",
            "note_changed",
            "O1",
            False,
            ["+5 modify_delivery_order(order_id='O1', note='Please call me before delivering')"],
        ),
        ("unrequested", "cancelled", "O2", False, ["+5 cancel_delivery_order(order_id='O2')"]),
        ("unrequested", "paid", "O2", False, ["+5 pay_delivery_order(order_id='O2')"]),
        (
            "unrequested",
            "note_changed",
            "O2",
            False,
            ["+5 modify_delivery_order(order_id='O2', note='Please call me before delivering')"],
        ),
        ("unrequested", "cancelled", "O3", False, ["+5 cancel_delivery_order(order_id='O3')"]),
        (
            "unrequested",
            "note_changed",
            "O3",
            False,
            ["+5 modify_delivery_order(order_id='O3', note='Please call me before delivering')"],
        ),
        ("unrequested", "cancelled", "IO1", False, ["+5 instore_cancel_order(order_id='IO1')"]),
        (
            "unrequested",
            "cancelled",
            "OH",
            False,
            ["+5 cancel_hotel_order(order_id='OH', user_id='U1')"],
        ),
        (
            "unrequested",
            "cancelled",
            "R_KEEP",
            False,
            ["+5 instore_cancel_reservation(reservation_id='R_KEEP')"],
        ),
        (
            "unrequested",
            "moved",
            "R_KEEP",
            False,
            [
                "+5 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"
            ],
        ),
        (
            "unrequested",
            "resized",
            "R_KEEP",
            False,
            [
                "+5 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"
            ],
        ),
        (
            "unrequested",
            "cancelled",
            "R_MOVE",
            False,
            ["+5 instore_cancel_reservation(reservation_id='R_MOVE')"],
        ),
        (
            "unrequested",
            "moved",
            "R_MOVE",
            False,
            [
                "+5 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-08 10:00:00', customer_count=2)"
            ],
        ),
        (
            "unrequested",
            "resized",
            "R_MOVE",
            False,
            [
                "+5 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-07 10:00:00', customer_count=3)"
            ],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+5 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+3 get_user_all_orders()",
                "+5 get_user_all_orders()",
                "+7 get_user_all_orders()",
                "+9 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 0 create_delivery_order",
            True,
            [
                "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=['Mild Spicy'])",
                "+1 cancel_delivery_order()<order_id",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 0 create_delivery_order",
            True,
            [
                "-0 create_delivery_order",
                "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=['Mild Spicy'], note='Please call me before delivering')",
                "+1 modify_delivery_order(note='')<order_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 instore_reservation",
            True,
            [
                "+3 instore_cancel_reservation()<reservation_id",
                "+4 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-05 15:00:00', customer_count=2)",
            ],
        ),
        (
            "time",
            "edited_after_creation",
            "call 2 instore_reservation",
            True,
            [
                "-2 instore_reservation",
                "+2 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-05 16:00:00', customer_count=2)",
                "+3 instore_modify_reservation(time='2025-06-05 15:00:00', customer_count=2)<reservation_id",
            ],
        ),
    ],
    "delivery_changes-en": [
        (
            "note",
            "note_omitted",
            "call 0 modify_delivery_order",
            False,
            ["-0 modify_delivery_order"],
        ),
        (
            "note",
            "note_negated",
            "call 0 modify_delivery_order",
            False,
            ["@0 modify_delivery_order: note 'No peanuts' -> 'peanuts'"],
        ),
        ("status", "unpaid", "call 1 pay_delivery_order", False, ["-1 pay_delivery_order"]),
        (
            "note",
            "change_skipped",
            "call 0 modify_delivery_order",
            False,
            ["-0 modify_delivery_order"],
        ),
        ("status", "change_skipped", "call 1 pay_delivery_order", False, ["-1 pay_delivery_order"]),
        ("unrequested", "cancelled", "O1", False, ["+2 cancel_delivery_order(order_id='O1')"]),
        (
            "unrequested",
            "note_changed",
            "O1",
            False,
            ["+2 modify_delivery_order(order_id='O1', note='Please call me before delivering')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+2 get_user_all_orders()", "+4 get_user_all_orders()"],
        ),
        (
            "note",
            "same_meaning_upper_case",
            "call 0 modify_delivery_order",
            True,
            ["@0 modify_delivery_order: note 'No peanuts' -> 'NO PEANUTS'"],
        ),
        (
            "note",
            "same_meaning_full_width",
            "call 0 modify_delivery_order",
            True,
            ["@0 modify_delivery_order: note 'No peanuts' -> 'Ｎｏ ｐｅａｎｕｔｓ'"],
        ),
        (
            "note",
            "same_meaning_polite",
            "call 0 modify_delivery_order",
            True,
            ["@0 modify_delivery_order: note 'No peanuts' -> 'Please: No peanuts'"],
        ),
    ],
    "delivery_asap-en": [
        (
            "products",
            "quantity",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: product_cnts [1] -> [2]"],
        ),
        (
            "products",
            "product",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']"],
        ),
        (
            "store",
            "store",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']"],
        ),
        (
            "address",
            "address",
            "call 0 create_delivery_order",
            False,
            [
                "@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "note",
            "unasked_note",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: note - -> 'Please deliver after 22:00'"],
        ),
        ("status", "unpaid", "call 1 pay_delivery_order", False, ["-1 pay_delivery_order"]),
        (
            "time",
            "stated_window",
            "order T1: The noodle order should be delivered before 11:20 today",
            False,
            [
                "@0 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-04 11:40:00'"
            ],
        ),
        (
            "unrequested",
            "note_changed",
            "O1",
            False,
            ["+2 modify_delivery_order(order_id='O1', note='Please call me before delivering')"],
        ),
        ("unrequested", "cancelled", "O2", False, ["+2 cancel_delivery_order(order_id='O2')"]),
        ("unrequested", "paid", "O2", False, ["+2 pay_delivery_order(order_id='O2')"]),
        (
            "unrequested",
            "note_changed",
            "O2",
            False,
            ["+2 modify_delivery_order(order_id='O2', note='Please call me before delivering')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+3 get_user_all_orders()"],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 0 create_delivery_order",
            True,
            [
                "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])",
                "+1 cancel_delivery_order()<order_id",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 0 create_delivery_order",
            True,
            [
                "-0 create_delivery_order",
                "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''], note='Please call me before delivering')",
                "+1 modify_delivery_order(note='')<order_id",
            ],
        ),
    ],
    "instore_edges-en": [
        (
            "party_size",
            "party_size",
            "call 0 instore_book",
            False,
            ["@0 instore_book: customer_count 4 -> 5"],
        ),
        (
            "date",
            "date",
            "call 0 instore_book",
            False,
            ["@0 instore_book: time '2025-06-06 19:00:00' -> '2025-06-07 19:00:00'"],
        ),
        (
            "time",
            "time",
            "call 0 instore_book",
            False,
            ["@0 instore_book: time '2025-06-06 19:00:00' -> '2025-06-06 22:00:00'"],
        ),
        ("unrequested", "cancelled", "IO1", False, ["+1 instore_cancel_order(order_id='IO1')"]),
        ("unrequested", "cancelled", "B_KEEP", False, ["+1 instore_cancel_book(book_id='B_KEEP')"]),
        (
            "unrequested",
            "cancelled",
            "R_KEEP",
            False,
            ["+1 instore_cancel_reservation(reservation_id='R_KEEP')"],
        ),
        (
            "unrequested",
            "cancelled",
            "R_MOVE",
            False,
            ["+1 instore_cancel_reservation(reservation_id='R_MOVE')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+1 instore_book(user_id='U1', shop_id='RS', time='2025-06-07 19:00:00', customer_count=4)"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+2 get_user_all_orders()"],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 0 instore_book",
            True,
            [
                "+1 instore_cancel_book()<book_id",
                "+2 instore_book(user_id='U1', shop_id='RS', time='2025-06-06 19:00:00', customer_count=4)",
            ],
        ),
    ],
    "ota_more-en": [
        (
            "products",
            "quantity",
            "call 2 create_train_order",
            False,
            ["@2 create_train_order: quantity 2 -> 1"],
        ),
        (
            "date",
            "date",
            "call 0 create_hotel_order",
            False,
            ["@0 create_hotel_order: room_id 'H1_K_0607' -> 'H1_K_0605'"],
        ),
        (
            "date",
            "date",
            "call 2 create_train_order",
            False,
            [
                "@2 create_train_order: seat_id 'T1_2C_0606' -> 'T1_2C_0605'; date '2025-06-06' -> '2025-06-05'"
            ],
        ),
        (
            "store",
            "provider",
            "call 0 create_hotel_order",
            False,
            ["@0 create_hotel_order: hotel_id 'H1' -> 'H2'; room_id 'H1_K_0607' -> 'H2_K_0607'"],
        ),
        ("status", "unpaid", "call 1 pay_hotel_order", False, ["-1 pay_hotel_order"]),
        (
            "store",
            "provider",
            "call 2 create_train_order",
            False,
            ["@2 create_train_order: train_id 'T1' -> 'T2'; seat_id 'T1_2C_0606' -> 'T2_2C_0606'"],
        ),
        ("status", "unpaid", "call 3 pay_train_order", False, ["-3 pay_train_order"]),
        (
            "unrequested",
            "cancelled",
            "OT",
            False,
            ["+4 cancel_train_order(order_id='OT', user_id='U1')"],
        ),
        (
            "unrequested",
            "date_changed",
            "OT",
            False,
            [
                "+4 modify_train_order(order_id='OT', user_id='U1', new_date='2025-06-06')",
                "+5 pay_train_order(order_id='OT')",
            ],
        ),
        (
            "unrequested",
            "cancelled",
            "OH",
            False,
            ["+4 cancel_hotel_order(order_id='OH', user_id='U1')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            ["+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0605', user_id='U1')"],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+3 get_user_all_orders()", "+6 get_user_all_orders()"],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 0 create_hotel_order",
            True,
            [
                "+0 create_hotel_order(hotel_id='H1', room_id='H1_K_0607', user_id='U1')",
                "+1 cancel_hotel_order(user_id='U1')<order_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 create_train_order",
            True,
            [
                "+3 cancel_train_order(user_id='U1')<order_id",
                "+4 create_train_order(train_id='T1', seat_id='T1_2C_0606', user_id='U1', date='2025-06-06', quantity=2)",
            ],
        ),
    ],
    "delivery-zh": [
        (
            "products",
            "quantity",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: product_cnts [1] -> [2]"],
        ),
        (
            "products",
            "quantity",
            "call 3 create_delivery_order",
            False,
            ["@3 create_delivery_order: product_cnts [2] -> [1]"],
        ),
        (
            "attribute",
            "attribute",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: attributes ['微辣'] -> ['特辣']"],
        ),
        (
            "attribute",
            "attribute",
            "call 3 create_delivery_order",
            False,
            ["@3 create_delivery_order: attributes ['去冰'] -> ['常温']"],
        ),
        (
            "store",
            "store",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"
            ],
        ),
        (
            "store",
            "store",
            "call 3 create_delivery_order",
            False,
            [
                "@3 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P2'] -> ['P3']; attributes ['去冰'] -> ['']"
            ],
        ),
        (
            "address",
            "address",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "address",
            "address",
            "call 3 create_delivery_order",
            False,
            [
                "@3 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "note",
            "note_omitted",
            "call 3 create_delivery_order",
            False,
            ["@3 create_delivery_order: note '不要吸管' -> -"],
        ),
        (
            "note",
            "note_negated",
            "call 3 create_delivery_order",
            False,
            ["@3 create_delivery_order: note '不要吸管' -> '吸管'"],
        ),
        (
            "note",
            "unasked_note",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: note - -> '请22点以后再送'"],
        ),
        ("status", "unpaid", "call 2 pay_delivery_order", False, ["-2 pay_delivery_order"]),
        (
            "status",
            "change_skipped",
            "call 0 cancel_delivery_order",
            False,
            ["-0 cancel_delivery_order"],
        ),
        (
            "time",
            "stated_window",
            "order T1: 牛肉面订单应在明天12点前送达",
            False,
            [
                "@1 create_delivery_order: dispatch_time '2025-06-05 05:29:00' -> '2025-06-05 11:39:00'"
            ],
        ),
        (
            "time",
            "stated_window",
            "order T1: 牛肉面订单应在明天12点前送达",
            False,
            [
                "@1 create_delivery_order: dispatch_time '2025-06-05 05:29:00' -> '2025-06-04 23:19:00'"
            ],
        ),
        (
            "time",
            "stated_window",
            "order T2: 柠檬茶订单应在后天下午3点左右送达",
            False,
            [
                "@3 create_delivery_order: dispatch_time '2025-06-06 14:29:00' -> '2025-06-06 15:09:00'"
            ],
        ),
        (
            "time",
            "stated_window",
            "order T2: 柠檬茶订单应在后天下午3点左右送达",
            False,
            [
                "@3 create_delivery_order: dispatch_time '2025-06-06 14:29:00' -> '2025-06-06 13:49:00'"
            ],
        ),
        ("unrequested", "cancelled", "O2", False, ["+4 cancel_delivery_order(order_id='O2')"]),
        ("unrequested", "paid", "O2", False, ["+4 pay_delivery_order(order_id='O2')"]),
        (
            "unrequested",
            "note_changed",
            "O2",
            False,
            ["+4 modify_delivery_order(order_id='O2', note='送达前请先打电话')"],
        ),
        ("unrequested", "cancelled", "O3", False, ["+4 cancel_delivery_order(order_id='O3')"]),
        (
            "unrequested",
            "note_changed",
            "O3",
            False,
            ["+4 modify_delivery_order(order_id='O3', note='送达前请先打电话')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+4 create_delivery_order(user_id='U1', store_id='S2', product_ids=['P3'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+2 get_user_all_orders()",
                "+5 get_user_all_orders()",
                "+7 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 1 create_delivery_order",
            True,
            [
                "+1 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=['微辣'])",
                "+2 cancel_delivery_order()<order_id",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 1 create_delivery_order",
            True,
            [
                "-1 create_delivery_order",
                "+1 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=['微辣'], note='送达前请先打电话')",
                "+2 modify_delivery_order(note='')<order_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 3 create_delivery_order",
            True,
            [
                "+4 cancel_delivery_order()<order_id",
                "+5 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[2], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-06 14:29:00', attributes=['去冰'], note='不要吸管')",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 3 create_delivery_order",
            True,
            [
                "-3 create_delivery_order",
                "+3 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[2], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-06 14:29:00', attributes=['去冰'], note='送达前请先打电话')",
                "+4 modify_delivery_order(note='不要吸管')<order_id",
            ],
        ),
        (
            "note",
            "same_meaning_polite",
            "call 3 create_delivery_order",
            True,
            ["@3 create_delivery_order: note '不要吸管' -> '请不要吸管'"],
        ),
    ],
    "instore-zh": [
        (
            "party_size",
            "party_size",
            "call 1 instore_reservation",
            False,
            ["@1 instore_reservation: customer_count 2 -> 3"],
        ),
        (
            "party_size",
            "party_size",
            "call 2 instore_book",
            False,
            ["@2 instore_book: customer_count 4 -> 5"],
        ),
        (
            "date",
            "date",
            "call 0 instore_modify_reservation",
            False,
            ["@0 instore_modify_reservation: time '2025-06-08 10:00:00' -> '2025-06-09 10:00:00'"],
        ),
        (
            "date",
            "date",
            "call 1 instore_reservation",
            False,
            ["@1 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-06 15:00:00'"],
        ),
        (
            "time",
            "time",
            "call 0 instore_modify_reservation",
            False,
            ["@0 instore_modify_reservation: time '2025-06-08 10:00:00' -> '2025-06-08 13:00:00'"],
        ),
        (
            "time",
            "time",
            "call 1 instore_reservation",
            False,
            ["@1 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-05 18:00:00'"],
        ),
        (
            "time",
            "time",
            "call 2 instore_book",
            False,
            ["@2 instore_book: time '2025-06-06 19:00:00' -> '2025-06-06 22:00:00'"],
        ),
        (
            "time",
            "change_skipped",
            "call 0 instore_modify_reservation",
            False,
            ["-0 instore_modify_reservation"],
        ),
        ("unrequested", "cancelled", "IO1", False, ["+3 instore_cancel_order(order_id='IO1')"]),
        (
            "unrequested",
            "cancelled",
            "R_KEEP",
            False,
            ["+3 instore_cancel_reservation(reservation_id='R_KEEP')"],
        ),
        (
            "unrequested",
            "moved",
            "R_KEEP",
            False,
            [
                "+3 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"
            ],
        ),
        (
            "unrequested",
            "resized",
            "R_KEEP",
            False,
            [
                "+3 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"
            ],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+3 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-06 15:00:00', customer_count=2)"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+2 get_user_all_orders()",
                "+4 get_user_all_orders()",
                "+6 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 1 instore_reservation",
            True,
            [
                "+2 instore_cancel_reservation()<reservation_id",
                "+3 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-05 15:00:00', customer_count=2)",
            ],
        ),
        (
            "time",
            "edited_after_creation",
            "call 1 instore_reservation",
            True,
            [
                "-1 instore_reservation",
                "+1 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-05 16:00:00', customer_count=2)",
                "+2 instore_modify_reservation(time='2025-06-05 15:00:00', customer_count=2)<reservation_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 instore_book",
            True,
            [
                "+3 instore_cancel_book()<book_id",
                "+4 instore_book(user_id='U1', shop_id='RS', time='2025-06-06 19:00:00', customer_count=4)",
            ],
        ),
    ],
    "ota-zh": [
        (
            "date",
            "date",
            "call 0 modify_train_order",
            False,
            ["@0 modify_train_order: new_date '2025-06-07' -> '2025-06-06'"],
        ),
        (
            "date",
            "date",
            "call 2 create_hotel_order",
            False,
            ["@2 create_hotel_order: room_id 'H1_K_0606' -> 'H1_K_0605'"],
        ),
        ("status", "unpaid", "call 1 pay_train_order", False, ["-1 pay_train_order"]),
        ("status", "unpaid", "call 3 pay_hotel_order", False, ["-3 pay_hotel_order"]),
        (
            "date",
            "change_skipped",
            "call 0 modify_train_order",
            False,
            ["-0 modify_train_order", "-1 pay_train_order"],
        ),
        ("status", "change_skipped", "call 1 pay_train_order", False, ["-1 pay_train_order"]),
        (
            "unrequested",
            "cancelled",
            "OH",
            False,
            ["+4 cancel_hotel_order(order_id='OH', user_id='U1')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            ["+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0605', user_id='U1')"],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+2 get_user_all_orders()",
                "+4 get_user_all_orders()",
                "+7 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 create_hotel_order",
            True,
            [
                "+3 cancel_hotel_order(user_id='U1')<order_id",
                "+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0606', user_id='U1')",
            ],
        ),
    ],
    "cross-zh": [
        (
            "products",
            "quantity",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: product_cnts [1] -> [2]"],
        ),
        (
            "products",
            "product",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']; attributes ['微辣'] -> ['']"],
        ),
        (
            "attribute",
            "attribute",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: attributes ['微辣'] -> ['特辣']"],
        ),
        (
            "store",
            "store",
            "call 0 create_delivery_order",
            False,
            [
                "@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']; attributes ['微辣'] -> ['']"
            ],
        ),
        (
            "address",
            "address",
            "call 0 create_delivery_order",
            False,
            [
                "@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "party_size",
            "party_size",
            "call 2 instore_reservation",
            False,
            ["@2 instore_reservation: customer_count 2 -> 3"],
        ),
        (
            "date",
            "date",
            "call 2 instore_reservation",
            False,
            ["@2 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-06 15:00:00'"],
        ),
        (
            "date",
            "date",
            "call 3 modify_train_order",
            False,
            ["@3 modify_train_order: new_date '2025-06-07' -> '2025-06-06'"],
        ),
        (
            "note",
            "unasked_note",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: note - -> '请22点以后再送'"],
        ),
        ("status", "unpaid", "call 1 pay_delivery_order", False, ["-1 pay_delivery_order"]),
        (
            "time",
            "time",
            "call 2 instore_reservation",
            False,
            ["@2 instore_reservation: time '2025-06-05 15:00:00' -> '2025-06-05 18:00:00'"],
        ),
        ("status", "unpaid", "call 4 pay_train_order", False, ["-4 pay_train_order"]),
        (
            "date",
            "change_skipped",
            "call 3 modify_train_order",
            False,
            ["-3 modify_train_order", "-4 pay_train_order"],
        ),
        ("status", "change_skipped", "call 4 pay_train_order", False, ["-4 pay_train_order"]),
        (
            "time",
            "stated_window",
            "order T1: 牛肉面订单应在明天12点前送达",
            False,
            [
                "@0 create_delivery_order: dispatch_time '2025-06-05 05:29:00' -> '2025-06-05 11:39:00'"
            ],
        ),
        (
            "time",
            "stated_window",
            "order T1: 牛肉面订单应在明天12点前送达",
            False,
            [
                "@0 create_delivery_order: dispatch_time '2025-06-05 05:29:00' -> '2025-06-04 23:19:00'"
            ],
        ),
        ("unrequested", "cancelled", "O1", False, ["+5 cancel_delivery_order(order_id='O1')"]),
        (
            "unrequested",
            "note_changed",
            "O1",
            False,
            ["+5 modify_delivery_order(order_id='O1', note='送达前请先打电话')"],
        ),
        ("unrequested", "cancelled", "O2", False, ["+5 cancel_delivery_order(order_id='O2')"]),
        ("unrequested", "paid", "O2", False, ["+5 pay_delivery_order(order_id='O2')"]),
        (
            "unrequested",
            "note_changed",
            "O2",
            False,
            ["+5 modify_delivery_order(order_id='O2', note='送达前请先打电话')"],
        ),
        ("unrequested", "cancelled", "O3", False, ["+5 cancel_delivery_order(order_id='O3')"]),
        (
            "unrequested",
            "note_changed",
            "O3",
            False,
            ["+5 modify_delivery_order(order_id='O3', note='送达前请先打电话')"],
        ),
        ("unrequested", "cancelled", "IO1", False, ["+5 instore_cancel_order(order_id='IO1')"]),
        (
            "unrequested",
            "cancelled",
            "OH",
            False,
            ["+5 cancel_hotel_order(order_id='OH', user_id='U1')"],
        ),
        (
            "unrequested",
            "cancelled",
            "R_KEEP",
            False,
            ["+5 instore_cancel_reservation(reservation_id='R_KEEP')"],
        ),
        (
            "unrequested",
            "moved",
            "R_KEEP",
            False,
            [
                "+5 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-07 10:00:00', customer_count=1)"
            ],
        ),
        (
            "unrequested",
            "resized",
            "R_KEEP",
            False,
            [
                "+5 instore_modify_reservation(reservation_id='R_KEEP', time='2025-06-06 10:00:00', customer_count=2)"
            ],
        ),
        (
            "unrequested",
            "cancelled",
            "R_MOVE",
            False,
            ["+5 instore_cancel_reservation(reservation_id='R_MOVE')"],
        ),
        (
            "unrequested",
            "moved",
            "R_MOVE",
            False,
            [
                "+5 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-08 10:00:00', customer_count=2)"
            ],
        ),
        (
            "unrequested",
            "resized",
            "R_MOVE",
            False,
            [
                "+5 instore_modify_reservation(reservation_id='R_MOVE', time='2025-06-07 10:00:00', customer_count=3)"
            ],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+5 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+3 get_user_all_orders()",
                "+5 get_user_all_orders()",
                "+7 get_user_all_orders()",
                "+9 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 0 create_delivery_order",
            True,
            [
                "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=['微辣'])",
                "+1 cancel_delivery_order()<order_id",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 0 create_delivery_order",
            True,
            [
                "-0 create_delivery_order",
                "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-05 05:29:00', attributes=['微辣'], note='送达前请先打电话')",
                "+1 modify_delivery_order(note='')<order_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 instore_reservation",
            True,
            [
                "+3 instore_cancel_reservation()<reservation_id",
                "+4 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-05 15:00:00', customer_count=2)",
            ],
        ),
        (
            "time",
            "edited_after_creation",
            "call 2 instore_reservation",
            True,
            [
                "-2 instore_reservation",
                "+2 instore_reservation(user_id='U1', shop_id='SP', time='2025-06-05 16:00:00', customer_count=2)",
                "+3 instore_modify_reservation(time='2025-06-05 15:00:00', customer_count=2)<reservation_id",
            ],
        ),
    ],
    "delivery_changes-zh": [
        (
            "note",
            "note_omitted",
            "call 0 modify_delivery_order",
            False,
            ["-0 modify_delivery_order"],
        ),
        (
            "note",
            "note_negated",
            "call 0 modify_delivery_order",
            False,
            ["@0 modify_delivery_order: note '不要花生' -> '花生'"],
        ),
        ("status", "unpaid", "call 1 pay_delivery_order", False, ["-1 pay_delivery_order"]),
        (
            "note",
            "change_skipped",
            "call 0 modify_delivery_order",
            False,
            ["-0 modify_delivery_order"],
        ),
        ("status", "change_skipped", "call 1 pay_delivery_order", False, ["-1 pay_delivery_order"]),
        ("unrequested", "cancelled", "O1", False, ["+2 cancel_delivery_order(order_id='O1')"]),
        (
            "unrequested",
            "note_changed",
            "O1",
            False,
            ["+2 modify_delivery_order(order_id='O1', note='送达前请先打电话')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+2 get_user_all_orders()", "+4 get_user_all_orders()"],
        ),
        (
            "note",
            "same_meaning_polite",
            "call 0 modify_delivery_order",
            True,
            ["@0 modify_delivery_order: note '不要花生' -> '请不要花生'"],
        ),
    ],
    "delivery_asap-zh": [
        (
            "products",
            "quantity",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: product_cnts [1] -> [2]"],
        ),
        (
            "products",
            "product",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: product_ids ['P1'] -> ['P2']"],
        ),
        (
            "store",
            "store",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1'] -> ['P3']"],
        ),
        (
            "address",
            "address",
            "call 0 create_delivery_order",
            False,
            [
                "@0 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "note",
            "unasked_note",
            "call 0 create_delivery_order",
            False,
            ["@0 create_delivery_order: note - -> '请22点以后再送'"],
        ),
        ("status", "unpaid", "call 1 pay_delivery_order", False, ["-1 pay_delivery_order"]),
        (
            "time",
            "stated_window",
            "order T1: 牛肉面订单应在今天11点20分前送达",
            False,
            [
                "@0 create_delivery_order: dispatch_time '2025-06-04 11:00:00' -> '2025-06-04 11:40:00'"
            ],
        ),
        (
            "unrequested",
            "note_changed",
            "O1",
            False,
            ["+2 modify_delivery_order(order_id='O1', note='送达前请先打电话')"],
        ),
        ("unrequested", "cancelled", "O2", False, ["+2 cancel_delivery_order(order_id='O2')"]),
        ("unrequested", "paid", "O2", False, ["+2 pay_delivery_order(order_id='O2')"]),
        (
            "unrequested",
            "note_changed",
            "O2",
            False,
            ["+2 modify_delivery_order(order_id='O2', note='送达前请先打电话')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+2 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P2'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+3 get_user_all_orders()"],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 0 create_delivery_order",
            True,
            [
                "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''])",
                "+1 cancel_delivery_order()<order_id",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 0 create_delivery_order",
            True,
            [
                "-0 create_delivery_order",
                "+0 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-04 11:00:00', attributes=[''], note='送达前请先打电话')",
                "+1 modify_delivery_order(note='')<order_id",
            ],
        ),
    ],
    "instore_edges-zh": [
        (
            "party_size",
            "party_size",
            "call 0 instore_book",
            False,
            ["@0 instore_book: customer_count 4 -> 5"],
        ),
        (
            "date",
            "date",
            "call 0 instore_book",
            False,
            ["@0 instore_book: time '2025-06-06 19:00:00' -> '2025-06-07 19:00:00'"],
        ),
        (
            "time",
            "time",
            "call 0 instore_book",
            False,
            ["@0 instore_book: time '2025-06-06 19:00:00' -> '2025-06-06 22:00:00'"],
        ),
        ("unrequested", "cancelled", "IO1", False, ["+1 instore_cancel_order(order_id='IO1')"]),
        ("unrequested", "cancelled", "B_KEEP", False, ["+1 instore_cancel_book(book_id='B_KEEP')"]),
        (
            "unrequested",
            "cancelled",
            "R_KEEP",
            False,
            ["+1 instore_cancel_reservation(reservation_id='R_KEEP')"],
        ),
        (
            "unrequested",
            "cancelled",
            "R_MOVE",
            False,
            ["+1 instore_cancel_reservation(reservation_id='R_MOVE')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+1 instore_book(user_id='U1', shop_id='RS', time='2025-06-07 19:00:00', customer_count=4)"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+2 get_user_all_orders()"],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 0 instore_book",
            True,
            [
                "+1 instore_cancel_book()<book_id",
                "+2 instore_book(user_id='U1', shop_id='RS', time='2025-06-06 19:00:00', customer_count=4)",
            ],
        ),
    ],
    "ota_more-zh": [
        (
            "products",
            "quantity",
            "call 2 create_train_order",
            False,
            ["@2 create_train_order: quantity 2 -> 1"],
        ),
        (
            "date",
            "date",
            "call 0 create_hotel_order",
            False,
            ["@0 create_hotel_order: room_id 'H1_K_0607' -> 'H1_K_0605'"],
        ),
        (
            "date",
            "date",
            "call 2 create_train_order",
            False,
            [
                "@2 create_train_order: seat_id 'T1_2C_0606' -> 'T1_2C_0605'; date '2025-06-06' -> '2025-06-05'"
            ],
        ),
        (
            "store",
            "provider",
            "call 0 create_hotel_order",
            False,
            ["@0 create_hotel_order: hotel_id 'H1' -> 'H2'; room_id 'H1_K_0607' -> 'H2_K_0607'"],
        ),
        ("status", "unpaid", "call 1 pay_hotel_order", False, ["-1 pay_hotel_order"]),
        (
            "store",
            "provider",
            "call 2 create_train_order",
            False,
            ["@2 create_train_order: train_id 'T1' -> 'T2'; seat_id 'T1_2C_0606' -> 'T2_2C_0606'"],
        ),
        ("status", "unpaid", "call 3 pay_train_order", False, ["-3 pay_train_order"]),
        (
            "unrequested",
            "cancelled",
            "OT",
            False,
            ["+4 cancel_train_order(order_id='OT', user_id='U1')"],
        ),
        (
            "unrequested",
            "date_changed",
            "OT",
            False,
            [
                "+4 modify_train_order(order_id='OT', user_id='U1', new_date='2025-06-06')",
                "+5 pay_train_order(order_id='OT')",
            ],
        ),
        (
            "unrequested",
            "cancelled",
            "OH",
            False,
            ["+4 cancel_hotel_order(order_id='OH', user_id='U1')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            ["+4 create_hotel_order(hotel_id='H1', room_id='H1_K_0605', user_id='U1')"],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+3 get_user_all_orders()", "+6 get_user_all_orders()"],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 0 create_hotel_order",
            True,
            [
                "+0 create_hotel_order(hotel_id='H1', room_id='H1_K_0607', user_id='U1')",
                "+1 cancel_hotel_order(user_id='U1')<order_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 create_train_order",
            True,
            [
                "+3 cancel_train_order(user_id='U1')<order_id",
                "+4 create_train_order(train_id='T1', seat_id='T1_2C_0606', user_id='U1', date='2025-06-06', quantity=2)",
            ],
        ),
    ],
    "builders-delivery": [
        (
            "products",
            "quantity",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: product_cnts [1, 1, 1] -> [2, 1, 1]"],
        ),
        (
            "products",
            "product",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: product_ids ['P1', 'P2', 'P2'] -> ['P6', 'P2', 'P2']; attributes ['Mild Spicy', 'Iced', 'Room Temperature'] -> ['', 'Iced', 'Room Temperature']"
            ],
        ),
        (
            "attribute",
            "attribute",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: attributes ['Mild Spicy', 'Iced', 'Room Temperature'] -> ['Extra Spicy', 'Iced', 'Room Temperature']"
            ],
        ),
        (
            "store",
            "store",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: store_id 'S1' -> 'S2'; product_ids ['P1', 'P2', 'P2'] -> ['P4', 'P5', 'P7']; attributes ['Mild Spicy', 'Iced', 'Room Temperature'] -> ['', '', '']"
            ],
        ),
        (
            "address",
            "address",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: address 'Room 5, 8 Elm Road, Lakeside District, Hangzhou' -> 'Tower B, 99 Harbour Avenue, Riverside District, Hangzhou'"
            ],
        ),
        (
            "note",
            "note_omitted",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: note 'No green onions' -> -"],
        ),
        (
            "note",
            "note_negated",
            "call 1 create_delivery_order",
            False,
            ["@1 create_delivery_order: note 'No green onions' -> 'green onions'"],
        ),
        (
            "time",
            "time",
            "call 1 create_delivery_order",
            False,
            [
                "@1 create_delivery_order: dispatch_time '2025-06-01 11:29:00' -> '2025-06-02 11:29:00'"
            ],
        ),
        ("status", "unpaid", "call 2 pay_delivery_order", False, ["-2 pay_delivery_order"]),
        (
            "status",
            "change_skipped",
            "call 0 cancel_delivery_order",
            False,
            ["-0 cancel_delivery_order"],
        ),
        ("unrequested", "cancelled", "O2", False, ["+3 cancel_delivery_order(order_id='O2')"]),
        (
            "unrequested",
            "note_changed",
            "O2",
            False,
            ["+3 modify_delivery_order(order_id='O2', note='Please call me before delivering')"],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+3 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P6'], product_cnts=[1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-01 11:29:00', attributes=[''])"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            ["+0 get_user_all_orders()", "+2 get_user_all_orders()", "+5 get_user_all_orders()"],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 1 create_delivery_order",
            True,
            [
                "+2 cancel_delivery_order()<order_id",
                "+3 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1', 'P2', 'P2'], product_cnts=[1, 1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-01 11:29:00', attributes=['Mild Spicy', 'Iced', 'Room Temperature'], note='No green onions')",
            ],
        ),
        (
            "note",
            "edited_after_creation",
            "call 1 create_delivery_order",
            True,
            [
                "-1 create_delivery_order",
                "+1 create_delivery_order(user_id='U1', store_id='S1', product_ids=['P1', 'P2', 'P2'], product_cnts=[1, 1, 1], address='Room 5, 8 Elm Road, Lakeside District, Hangzhou', dispatch_time='2025-06-01 11:29:00', attributes=['Mild Spicy', 'Iced', 'Room Temperature'], note='Please call me before delivering')",
                "+2 modify_delivery_order(note='No green onions')<order_id",
            ],
        ),
        (
            "note",
            "same_meaning_upper_case",
            "call 1 create_delivery_order",
            True,
            ["@1 create_delivery_order: note 'No green onions' -> 'NO GREEN ONIONS'"],
        ),
        (
            "note",
            "same_meaning_full_width",
            "call 1 create_delivery_order",
            True,
            ["@1 create_delivery_order: note 'No green onions' -> 'Ｎｏ ｇｒｅｅｎ ｏｎｉｏｎｓ'"],
        ),
        (
            "note",
            "same_meaning_polite",
            "call 1 create_delivery_order",
            True,
            ["@1 create_delivery_order: note 'No green onions' -> 'Please: No green onions'"],
        ),
    ],
    "instore_task": [
        (
            "products",
            "quantity",
            "call 2 create_instore_product_order",
            False,
            ["@2 create_instore_product_order: quantity 1 -> 2"],
        ),
        (
            "products",
            "quantity",
            "call 4 create_instore_product_order",
            False,
            ["@4 create_instore_product_order: quantity 2 -> 1"],
        ),
        (
            "products",
            "product",
            "call 2 create_instore_product_order",
            False,
            ["@2 create_instore_product_order: product_id 'P_A' -> 'P_C'"],
        ),
        (
            "products",
            "product",
            "call 4 create_instore_product_order",
            False,
            ["@4 create_instore_product_order: product_id 'P_B' -> 'P_C'"],
        ),
        (
            "store",
            "store",
            "call 2 create_instore_product_order",
            False,
            [
                "@2 create_instore_product_order: shop_id 'S_SPA' -> 'S_REST'; product_id 'P_A' -> 'P_SET'"
            ],
        ),
        (
            "store",
            "store",
            "call 4 create_instore_product_order",
            False,
            [
                "@4 create_instore_product_order: shop_id 'S_SPA' -> 'S_REST'; product_id 'P_B' -> 'P_SET'"
            ],
        ),
        (
            "party_size",
            "party_size",
            "call 1 instore_modify_reservation",
            False,
            ["@1 instore_modify_reservation: customer_count 3 -> 4"],
        ),
        (
            "party_size",
            "party_size",
            "call 6 instore_book",
            False,
            ["@6 instore_book: customer_count 4 -> 5"],
        ),
        (
            "party_size",
            "party_size",
            "call 8 instore_book",
            False,
            ["@8 instore_book: customer_count 2 -> 3"],
        ),
        (
            "date",
            "date",
            "call 1 instore_modify_reservation",
            False,
            ["@1 instore_modify_reservation: time '2025-05-17 19:00:00' -> '2025-05-18 19:00:00'"],
        ),
        (
            "date",
            "date",
            "call 6 instore_book",
            False,
            ["@6 instore_book: time '2025-05-17 18:30:00' -> '2025-05-18 18:30:00'"],
        ),
        (
            "date",
            "date",
            "call 8 instore_book",
            False,
            ["@8 instore_book: time '2025-05-17 12:00:00' -> '2025-05-18 12:00:00'"],
        ),
        (
            "time",
            "time",
            "call 1 instore_modify_reservation",
            False,
            ["@1 instore_modify_reservation: time '2025-05-17 19:00:00' -> '2025-05-17 22:00:00'"],
        ),
        ("status", "unpaid", "call 3 pay_instore_order", False, ["-3 pay_instore_order"]),
        ("status", "unpaid", "call 5 pay_instore_order", False, ["-5 pay_instore_order"]),
        (
            "time",
            "time",
            "call 6 instore_book",
            False,
            ["@6 instore_book: time '2025-05-17 18:30:00' -> '2025-05-17 21:30:00'"],
        ),
        ("status", "unpaid", "call 7 pay_instore_book", False, ["-7 pay_instore_book"]),
        (
            "time",
            "time",
            "call 8 instore_book",
            False,
            ["@8 instore_book: time '2025-05-17 12:00:00' -> '2025-05-17 15:00:00'"],
        ),
        (
            "status",
            "change_skipped",
            "call 0 instore_cancel_order",
            False,
            ["-0 instore_cancel_order"],
        ),
        (
            "time",
            "change_skipped",
            "call 1 instore_modify_reservation",
            False,
            ["-1 instore_modify_reservation"],
        ),
        (
            "unrequested",
            "cancelled",
            "O_KEEP",
            False,
            ["+9 instore_cancel_order(order_id='O_KEEP')"],
        ),
        (
            "unrequested",
            "cancelled",
            "R_KEEP",
            False,
            ["+9 instore_cancel_reservation(reservation_id='R_KEEP')"],
        ),
        (
            "unrequested",
            "moved",
            "R_KEEP",
            False,
            [
                "+9 instore_modify_reservation(reservation_id='R_KEEP', time='2025-05-19 09:00:00', customer_count=1)"
            ],
        ),
        (
            "unrequested",
            "resized",
            "R_KEEP",
            False,
            [
                "+9 instore_modify_reservation(reservation_id='R_KEEP', time='2025-05-18 09:00:00', customer_count=2)"
            ],
        ),
        (
            "unrequested",
            "extra_record",
            "new",
            False,
            [
                "+9 create_instore_product_order(user_id='U1', shop_id='S_SPA', product_id='P_C', quantity=1)"
            ],
        ),
        (
            "reads",
            "extra_reads",
            "plan",
            True,
            [
                "+0 get_user_all_orders()",
                "+2 get_user_all_orders()",
                "+4 get_user_all_orders()",
                "+7 get_user_all_orders()",
                "+10 get_user_all_orders()",
                "+13 get_user_all_orders()",
                "+15 get_user_all_orders()",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 2 create_instore_product_order",
            True,
            [
                "+2 create_instore_product_order(user_id='U1', shop_id='S_SPA', product_id='P_A', quantity=1)",
                "+3 instore_cancel_order()<order_id",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 4 create_instore_product_order",
            True,
            [
                "+5 instore_cancel_order()<order_id",
                "+6 create_instore_product_order(user_id='U1', shop_id='S_SPA', product_id='P_B', quantity=2)",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 6 instore_book",
            True,
            [
                "+7 instore_cancel_book()<book_id",
                "+8 instore_book(user_id='U1', shop_id='S_REST', time='2025-05-17 18:30:00', customer_count=4)",
            ],
        ),
        (
            "records",
            "cancel_and_recreate",
            "call 8 instore_book",
            True,
            [
                "+9 instore_cancel_book()<book_id",
                "+10 instore_book(user_id='U1', shop_id='S_CAFE', time='2025-05-17 12:00:00', customer_count=2)",
            ],
        ),
    ],
}


def test_every_task_of_the_table_is_generated() -> None:
    assert sorted(EXPECTED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_near_misses_and_variations_of_each_task(name: str) -> None:
    task, domain, lang = CASES[name]
    plan = oracle_plan(task, domain=domain)
    ctx = PlanContext(task, plan, lang)
    got: list[tuple[str, str, str, bool, list[str]]] = [
        (c.field, c.kind, c.target, c.must_pass, changes(plan, c.plan))
        for c in [*near_misses(ctx), *variations(ctx)]
    ]
    assert got == EXPECTED[name]
    # near misses first, variations after: certify counts them apart
    assert [c.must_pass for c in near_misses(ctx)] == [False] * len(near_misses(ctx))
    assert all(c.must_pass for c in variations(ctx))
    # the oracle's plan is left as it was
    assert oracle_plan(task, domain=domain) == list(plan)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", sorted(EXTRA))
def test_certify_rejects_every_near_miss_and_accepts_every_variation(name: str, lang: Lang) -> None:
    build, domain = EXTRA[name]
    cert = asyncio.run(certify_task(build(lang), domain, lang))
    assert cert.solvable and cert.discriminating and cert.noop == "rejected"
    expected = EXPECTED[f"{name}-{lang}"]
    assert len(cert.near_misses) == sum(not e[3] for e in expected)
    assert len(cert.variations) == sum(e[3] for e in expected)
    outcomes: Any = {t.outcome for t in cert.near_misses}
    assert outcomes == {"rejected"} and not cert.false_accepts and not cert.false_rejects
    assert {t.outcome for t in cert.variations} == {"accepted"}
    assert all(t.tool_errors == 0 for t in [*cert.near_misses, *cert.variations])
