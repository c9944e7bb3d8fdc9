"""The topic map as a file: SVG from analyze.charts, PNG drawn by matplotlib."""

from __future__ import annotations

from pathlib import Path

from paperscope.analyze.charts import PALETTE, topic_map


def draw_topic_map(points: list[tuple[str, str, int, float, float]], labels: dict[int, str], output: Path) -> None:
    if output.suffix.lower() == ".svg":
        output.write_text(topic_map(points, labels, link=None), encoding="utf-8")
        return
    import matplotlib

    matplotlib.use("Agg")  # no screen
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 9), dpi=120)
    for topic, label in sorted(labels.items()):
        mine = [(x, y) for _, _, t, x, y in points if t == topic]
        if mine:
            xs, ys = zip(*mine, strict=True)
            axes.scatter(xs, ys, s=12 if len(points) < 2_000 else 1, color=PALETTE[topic % len(PALETTE)], label=label)
    axes.set_axis_off()
    if len(labels) <= 20:
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, 0), ncol=2, fontsize=8, frameon=False)
    axes.set_title(f"{len(points)} papers, {len(labels)} topics")
    figure.savefig(output, bbox_inches="tight")
    plt.close(figure)
