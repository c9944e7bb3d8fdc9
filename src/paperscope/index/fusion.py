"""Reciprocal rank fusion: one ranking from several, by rank alone (scores on different scales
need no calibration). Cormack, Clarke and Büttcher, SIGIR 2009."""

from __future__ import annotations

RRF_K = 60


def fuse(lists: dict[str, list[tuple[str, float]]]) -> list[tuple[str, float, dict[str, float]]]:
    """(id, fused score, parts) best first, from lists of (id, score) each best first.

    With one list, its own scores are kept. The parts name each list's score and rank.
    """
    if len(lists) == 1:
        name, ranked = next(iter(lists.items()))
        return [(pid, score, {name: round(score, 4), f"{name}_rank": rank})
                for rank, (pid, score) in enumerate(ranked, start=1)]  # fmt: skip
    fused: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    for name, ranked in lists.items():
        for rank, (pid, score) in enumerate(ranked, start=1):
            fused[pid] = fused.get(pid, 0.0) + 1.0 / (RRF_K + rank)
            parts.setdefault(pid, {}).update({name: round(score, 4), f"{name}_rank": rank})
    order = sorted(fused, key=lambda pid: -fused[pid])
    return [(pid, fused[pid], parts[pid]) for pid in order]
