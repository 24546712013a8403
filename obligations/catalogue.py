"""The built-in catalogue: the four seed mechanisms and the lemmas their proofs use."""

from __future__ import annotations

from mechanisms import (make_bounded_mean, make_clamp, make_partition_map,
                        make_randomized_response)
from obligations.arith import ln_up_lemma
from obligations.base import Entry, Example
from obligations.lemmas import row_transform_lemma, sized_path_lemma
from obligations.make_bounded_mean import bounded_mean_obligations
from obligations.make_clamp import clamp_obligations
from obligations.make_partition_map import partition_map_obligations
from obligations.make_randomized_response import (randomized_response_obligations,
                                                  stated_distribution)
from obligations.witnesses import make_count_capped

LEMMAS = Entry("lemmas", None, (row_transform_lemma(), sized_path_lemma(), ln_up_lemma()),
               "lemmas cited by the proofs", proof=True)


IMPORT_CATALOGUE = ("from mechanisms import (make_bounded_mean, make_clamp, make_partition_map, "
                    "make_randomized_response)", "from obligations.witnesses import make_count_capped")


def example(call: str, **options) -> Example:
    """An empirical example whose code is ``call``, evaluated with the catalogue's names."""
    names = {"make_clamp": make_clamp, "make_bounded_mean": make_bounded_mean,
             "make_randomized_response": make_randomized_response,
             "make_partition_map": make_partition_map, "make_count_capped": make_count_capped}
    return Example(call, lambda: eval(call, names), IMPORT_CATALOGUE, **options)  # noqa: S307


def builtin_catalogue() -> list[Entry]:
    return [
        Entry("make_clamp", make_clamp, clamp_obligations(),
              "clamp vector entries into [lower, upper]",
              (example("make_clamp(0.0, 1.0)"), example("make_clamp(-3, 3)")), proof=True),
        Entry("make_bounded_mean", make_bounded_mean, bounded_mean_obligations(),
              "mean of n values in [lower, upper]",
              (example("make_bounded_mean(0.0, 1.0, 3)"),), proof=True),
        Entry("make_randomized_response", make_randomized_response,
              randomized_response_obligations(), "randomized response over t categories",
              (example("make_randomized_response(['a', 'b', 'c'], 0.75)",
                       distribution=stated_distribution),
               example("make_randomized_response([True, False], 0.6)",
                       distribution=stated_distribution)), proof=True),
        Entry("make_partition_map", make_partition_map, partition_map_obligations(),
              "apply one transformation per partition",
              (example("make_partition_map([make_clamp(0.0, 1.0), make_clamp(-3, 3)])"),
               example("make_partition_map([make_count_capped(1), make_count_capped(2)])")),
              proof=True),
        LEMMAS,
    ]
