"""Plots as inline SVG (matplotlib, no network): the map as a function of d_in, and the
estimated privacy loss with its confidence interval against the claim, pair by pair."""

from __future__ import annotations

import io
import math
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

plt.rcParams.update({"svg.fonttype": "none", "font.size": 9})


def _svg(figure: Any) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def map_curve_svg(curve: dict[str, Any], title: str) -> str:
    figure, axes = plt.subplots(figsize=(4.2, 2.4))
    axes.step(curve["d_in"], curve["map"], where="post", color="#1f5f8b")
    axes.plot(curve["d_in"], curve["map"], "o", color="#1f5f8b", markersize=3)
    axes.set_xlabel("d_in")
    axes.set_ylabel("map(d_in)")
    axes.set_title(title, fontsize=9)
    axes.grid(alpha=0.3)
    return _svg(figure)


def loss_svg(pairs: list[dict[str, Any]], title: str) -> str:
    """One point per (pair, direction): estimate, interval [lower, upper] (clipped for display),
    and the claim."""
    figure, axes = plt.subplots(figsize=(6.4, 2.8))
    xs = list(range(1, len(pairs) + 1))
    finite = [p["loss_estimate"] for p in pairs if math.isfinite(p["loss_estimate"])]
    ceiling = max(finite + [p["claim"] for p in pairs] + [0.0]) * 1.5 + 0.5
    for x, p in zip(xs, pairs):
        lower = max(p["loss_lower"], -ceiling) if math.isfinite(p["loss_lower"]) else -ceiling
        upper = min(p["loss_upper"], ceiling) if math.isfinite(p["loss_upper"]) else ceiling
        colour = "#b3261e" if p["violation"] else "#1f5f8b"
        axes.vlines(x, lower, upper, color=colour, alpha=0.5, linewidth=4)
        axes.plot(x, p["loss_estimate"], "o", color=colour, markersize=4)
        axes.plot([x - 0.4, x + 0.4], [p["claim"]] * 2, color="#333333", linewidth=1)
    axes.set_xlabel("tested pair and direction")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel("privacy loss (ln)")
    axes.set_title(title + "  (dot: estimate, bar: interval, line: claim)", fontsize=9)
    axes.set_ylim(bottom=min(0.0, axes.get_ylim()[0]))
    axes.grid(alpha=0.3)
    return _svg(figure)
