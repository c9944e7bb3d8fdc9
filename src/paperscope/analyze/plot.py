"""The topic map as a file: SVG from analyze.charts, PNG drawn by matplotlib."""

from __future__ import annotations

from pathlib import Path

from paperscope.analyze.charts import Point, topic_centres, topic_colour, topic_map, topic_name

LEGEND_ROWS = 30  # legend entries per column under the map


def draw_topic_map(points: list[Point], labels: dict[int, str], output: Path) -> None:
    if output.suffix.lower() == ".svg":
        output.write_text(topic_map(points, labels, link=None), encoding="utf-8")
        return
    import matplotlib

    matplotlib.use("Agg")  # no screen
    import matplotlib.patheffects as effects
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(11, 11), dpi=120)
    for topic, label in sorted(labels.items()):
        mine = [(x, y) for _, _, t, x, y in points if t == topic]
        if mine:
            xs, ys = zip(*mine, strict=True)
            axes.scatter(
                xs,
                ys,
                s=12 if len(points) < 2_000 else 2,
                color=topic_colour(topic),
                label=f"{topic + 1}  {label}",
                linewidths=0,
            )
    halo = [effects.withStroke(linewidth=3, foreground="white")]
    for topic, (x, y) in topic_centres(points).items():
        axes.text(
            x,
            y,
            topic_name(topic, labels.get(topic, "")),
            color=topic_colour(topic),
            fontsize=8,
            fontweight="bold",
            ha="center",
            va="center",
            path_effects=halo,
        )
    axes.set_axis_off()
    columns = max(1, -(-len(labels) // LEGEND_ROWS))
    axes.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, 0),
        ncol=columns,
        fontsize=7,
        frameon=False,
        markerscale=3 if len(points) >= 2_000 else 1,
    )
    axes.set_title(f"{len(points)} papers, {len(labels)} topics")
    figure.savefig(output, bbox_inches="tight")
    plt.close(figure)
