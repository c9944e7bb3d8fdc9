"""The topic map as a file: SVG from analyze.charts, PNG drawn by matplotlib."""

from __future__ import annotations

from pathlib import Path

from paperscope.analyze.charts import MAP_MARGIN, Point, label_places, topic_colour, topic_map, unit_place

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
    for topic, name, left, baseline in label_places(points, labels):  # placed as on the web's map, in its pixels
        axes.text(
            *unit_place(left, baseline),
            name,
            color=topic_colour(topic),
            fontsize=9,  # smaller, for the width of this picture, than the web map's 13 pixels the places assume
            fontweight="bold",
            ha="center",
            va="center",
            path_effects=halo,
        )
    axes.set_xlim(-MAP_MARGIN, 1 + MAP_MARGIN)  # the same frame as the web map's, so that the places hold
    axes.set_ylim(-MAP_MARGIN, 1 + MAP_MARGIN)
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
