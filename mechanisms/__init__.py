"""Executable DP constructors in the style of OpenDP, written so the checker can evaluate them."""

from mechanisms.core import Constructor, Map, Measurement, Transformation, make_chain
from mechanisms.make_bounded_mean import make_bounded_mean
from mechanisms.make_clamp import make_clamp
from mechanisms.make_partition_map import make_partition_map
from mechanisms.make_randomized_response import make_randomized_response

__all__ = ["Constructor", "Map", "Measurement", "Transformation", "make_chain",
           "make_bounded_mean", "make_clamp", "make_partition_map", "make_randomized_response"]
