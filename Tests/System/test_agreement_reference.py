"""Fleiss' kappa and Krippendorff's alpha of the real Swift code (`swipedeck agreement`) against the
reference implementations from PyPI — statsmodels' `fleiss_kappa` and the `krippendorff` package —
on random rating tables, to 1e-9.

Tables have unequal numbers of ratings per card (as a deck does): alpha takes them all; kappa is
computed by the server over the cards rated by the modal count (ties to the larger count), so the
reference is given those same cards.
"""

import json
import random
import subprocess
from collections import Counter

import numpy as np
import pytest

from testenv import BINARY

krippendorff = pytest.importorskip("krippendorff")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")


def random_table(rng):
    """A counts table of 5–60 cards and 2–8 categories; cards rated by 1–9 people, with a
    preferred category per card so that agreement is neither 0 nor 1."""
    categories = rng.randint(2, 8)
    cards = rng.randint(5, 60)
    common = rng.randint(2, 9)
    table = []
    for _ in range(cards):
        raters = common if rng.random() < 0.6 else rng.randint(1, 9)
        favourite = rng.randrange(categories)
        row = [0] * categories
        for _ in range(raters):
            j = favourite if rng.random() < rng.uniform(0.2, 0.9) else rng.randrange(categories)
            row[j] += 1
        table.append(row)
    return table


def swift(tables):
    """One `swipedeck agreement` run per table (each prints one JSON object)."""
    out = []
    for table in tables:
        done = subprocess.run(
            [str(BINARY), "agreement"], input=json.dumps({"table": table}).encode(), capture_output=True, check=True
        )
        out.append(json.loads(done.stdout))
    return out


def modal_rows(table):
    rated = [row for row in table if sum(row) >= 2]
    counts = Counter(sum(row) for row in rated)
    modal = max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
    return [row for row in rated if sum(row) == modal]


def test_kappa_and_alpha_match_the_reference_implementations():
    rng = random.Random(29)
    tables = [random_table(rng) for _ in range(40)]
    compared_kappa = compared_alpha = 0
    for table, got in zip(tables, swift(tables)):
        rows = modal_rows(table)
        expected_kappa = inter_rater.fleiss_kappa(np.array(rows, dtype=float), method="fleiss") if len(rows) >= 2 else None
        if expected_kappa is None or not np.isfinite(expected_kappa):
            assert got.get("fleissKappa") is None, table
        else:
            assert got["fleissKappa"]["cards"] == len(rows)
            assert got["fleissKappa"]["value"] == pytest.approx(expected_kappa, abs=1e-9), table
            compared_kappa += 1
        pairable = np.array([row for row in table if sum(row) >= 2], dtype=float)
        expected_alpha = krippendorff.alpha(value_counts=pairable, level_of_measurement="nominal")
        assert got["krippendorffAlpha"] == pytest.approx(expected_alpha, abs=1e-9), table
        compared_alpha += 1
        for row, agreement in zip(table, got["cardAgreement"]):
            m = sum(row)
            expected = sum(n * (n - 1) for n in row) / (m * (m - 1)) if m >= 2 else None
            assert agreement == (None if expected is None else pytest.approx(expected, abs=1e-12))
    # The generator must exercise both statistics, not skip them.
    assert compared_kappa >= 30 and compared_alpha == 40


def test_reference_on_the_textbook_examples():
    fleiss = [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]
    [got] = swift([fleiss])
    assert got["fleissKappa"]["value"] == pytest.approx(inter_rater.fleiss_kappa(np.array(fleiss)), abs=1e-9)
    # Krippendorff (2011)'s nominal example, as reliability data (observers × units, nan: missing).
    nan = np.nan
    data = np.array([
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ])
    table = [[int(np.sum(data[:, u] == v)) for v in range(1, 6)] for u in range(data.shape[1])]
    [got] = swift([table])
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert got["krippendorffAlpha"] == pytest.approx(expected, abs=1e-9)
    assert got["krippendorffAlpha"] == pytest.approx(0.743, abs=5e-4)


def test_bad_input_is_a_sentence_not_a_crash():
    done = subprocess.run([str(BINARY), "agreement"], input=b'{"table": [[1, 2], [3]]}', capture_output=True)
    assert done.returncode != 0
    assert b"same number of counts" in done.stderr
