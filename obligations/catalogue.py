"""The built-in catalogue: the four seed mechanisms and the lemmas their proofs use."""

from __future__ import annotations

from mechanisms import (make_bounded_mean, make_clamp, make_partition_map,
                        make_randomized_response)
from obligations.arith import ln_up_lemma
from obligations.base import Entry
from obligations.lemmas import row_transform_lemma, sized_path_lemma
from obligations.make_bounded_mean import bounded_mean_obligations
from obligations.make_clamp import clamp_obligations
from obligations.make_partition_map import partition_map_obligations
from obligations.make_randomized_response import randomized_response_obligations

LEMMAS = Entry("lemmas", None, (row_transform_lemma(), sized_path_lemma(), ln_up_lemma()),
               "lemmas cited by the proofs")


def builtin_catalogue() -> list[Entry]:
    return [
        Entry("make_clamp", make_clamp, clamp_obligations(),
              "clamp vector entries into [lower, upper]"),
        Entry("make_bounded_mean", make_bounded_mean, bounded_mean_obligations(),
              "mean of n values in [lower, upper]"),
        Entry("make_randomized_response", make_randomized_response,
              randomized_response_obligations(), "randomized response over t categories"),
        Entry("make_partition_map", make_partition_map, partition_map_obligations(),
              "apply one transformation per partition"),
        LEMMAS,
    ]
