"""Charts as SVG text: horizontal bar charts and the topic map, the same for the web and the CLI."""

from __future__ import annotations

from html import escape
from statistics import median

import colorcet

# Eight colours that stay apart for most colour vision (Okabe–Ito), for bar charts.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
# One colour per topic, 256 of them as far apart as Glasbey's method puts them, none too pale on white.
TOPIC_COLOURS: tuple[str, ...] = tuple(colorcet.palette["glasbey_bw_minc_20_maxl_70"])

LABEL_CHAR_WIDTH = 8.0  # a generous width of one bold 13-pixel character of a topic's label
LABEL_HEIGHT = 14
LABEL_SHIFTS = 3  # lines a topic's label may move up or down from its centre, off a larger topic's label
MAP_SIZE = 800  # the map's width and height in pixels, of which MAP_PAD on each side is margin
MAP_PAD = 20
MAP_MARGIN = MAP_PAD / (MAP_SIZE - 2 * MAP_PAD)  # the margin in the points' [0, 1] frame
Point = tuple[str, str, int, float, float]  # id, title, topic, x, y (x and y in [0, 1])


def topic_colour(topic: int) -> str:
    return TOPIC_COLOURS[topic % len(TOPIC_COLOURS)]


def topic_name(topic: int, label: str) -> str:
    """What the map writes at a topic: its number (as in the legend) and its first key phrase."""
    first = label.split(", ")[0]
    return f"{topic + 1} {first}" if first and first != f"topic {topic + 1}" else str(topic + 1)


def topic_centres(points: list[Point]) -> dict[int, tuple[float, float]]:
    """Where each topic's label goes: the median of its papers' places."""
    places: dict[int, list[tuple[float, float]]] = {}
    for _, _, topic, x, y in points:
        places.setdefault(topic, []).append((x, y))
    return {t: (median(x for x, _ in xy), median(y for _, y in xy)) for t, xy in places.items()}


def bars(rows: list[tuple[str, int]], title: str, width: int = 560) -> str:
    """A horizontal bar chart of (label, count) rows, largest scale at the longest bar."""
    if not rows:
        return ""
    label_width, bar_height, gap = 200, 18, 6
    height = 28 + len(rows) * (bar_height + gap)
    most = max(count for _, count in rows) or 1
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{escape(title)}" class="chart"><title>{escape(title)}</title>'
        ),
        f'<text x="0" y="16" font-weight="bold" font-size="14">{escape(title)}</text>',
    ]
    for i, (label, count) in enumerate(rows):
        y = 28 + i * (bar_height + gap)
        length = (width - label_width - 50) * count / most
        short = label if len(label) <= 28 else label[:27] + "…"
        parts.append(
            f'<text x="{label_width - 6}" y="{y + 13}" text-anchor="end" font-size="12">{escape(short)}</text>'
            f'<rect x="{label_width}" y="{y}" width="{length:.1f}" height="{bar_height}" fill="{PALETTE[0]}">'
            f"<title>{escape(label)}: {count:,}</title></rect>"
            f'<text x="{label_width + length + 4:.1f}" y="{y + 13}" font-size="12">{count:,}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def topic_map(
    points: list[Point], labels: dict[int, str], size: int = MAP_SIZE, link: str | None = "/papers/{id}"
) -> str:
    """Every paper as a dot coloured by topic, each titled and, given `link`, a link; each topic's
    number and first key phrase written near its centre (label_places)."""
    span = size - 2 * MAP_PAD
    role = "group" if link else "img"  # a picture of links is a group of them, not an image
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="{role}" '
            f'aria-label="Map of {len(points)} papers coloured by topic" class="map" id="map">'
            f'<rect width="{size}" height="{size}" fill="#ffffff"/><g id="map-points">'
        )
    ]
    radius = 4 if len(points) < 2_000 else 1.5
    for paper_id, title, topic, x, y in points:
        dot = (
            f'<circle cx="{MAP_PAD + x * span:.1f}" cy="{MAP_PAD + (1 - y) * span:.1f}" r="{radius}" '
            f'fill="{topic_colour(topic)}" data-id="{escape(paper_id)}" data-topic="{topic}">'
            f"<title>{escape(title)} — {escape(labels.get(topic, ''))}</title></circle>"
        )
        parts.append(f'<a href="{link.format(id=escape(paper_id))}">{dot}</a>' if link else dot)
    parts.append(
        '</g><g id="map-labels" font-size="13" font-weight="bold" text-anchor="middle" '
        'paint-order="stroke" stroke="#ffffff" stroke-width="3" pointer-events="none">'
    )
    for topic, name, left, baseline in label_places(points, labels, size):
        parts.append(
            f'<text x="{left:.1f}" y="{baseline:.1f}" fill="{topic_colour(topic)}" '
            f'data-topic="{topic}">{escape(name)}</text>'
        )
    parts.append("</g></svg>")
    return "".join(parts)


def label_places(
    points: list[Point], labels: dict[int, str], size: int = MAP_SIZE
) -> list[tuple[int, str, float, float]]:
    """(topic, text, centre x, baseline y) of each topic's label on a map `size` pixels wide, larger topics
    first: its number and first key phrase at its centre or on the nearest line above or below, at most
    LABEL_SHIFTS away, that no label already written covers; else its number alone there; else none (its dots
    keep their colour, and the legend its name). So no label is written over another: at 11.5k papers the
    web map had 1 overlapping pair of 59 labels, and the command line's picture, which placed none, many."""
    span = size - 2 * MAP_PAD
    taken: list[tuple[float, float, float, float]] = []
    places = []
    for topic, (x, y) in sorted(topic_centres(points).items()):  # topics are numbered largest first
        for name in dict.fromkeys((topic_name(topic, labels.get(topic, "")), str(topic + 1))):
            half = min(LABEL_CHAR_WIDTH * len(name) / 2, size / 2)  # kept inside the picture, not cut at its edge
            left = min(max(MAP_PAD + x * span, half), size - half)
            box = _free_line(left, half, MAP_PAD + (1 - y) * span, size, taken)
            if box is not None:
                taken.append(box)
                places.append((topic, name, left, box[3] - 3))
                break
    return places


def unit_place(left: float, baseline: float, size: int = MAP_SIZE) -> tuple[float, float]:
    """Where a label that label_places put at (`left`, `baseline`) has its centre, in the points' [0, 1] frame."""
    span = size - 2 * MAP_PAD
    return (left - MAP_PAD) / span, 1 - (baseline + 3 - LABEL_HEIGHT / 2 - MAP_PAD) / span


def _free_line(
    left: float, half: float, top: float, size: int, taken: list[tuple[float, float, float, float]]
) -> tuple[float, float, float, float] | None:
    """The box of a label centred at `left` on its topic's line (`top`) or the nearest free one above or below,
    at most LABEL_SHIFTS away; None when every one is covered."""
    shifts = [0, *(sign * step for step in range(1, LABEL_SHIFTS + 1) for sign in (1, -1))]
    lines = [min(max(top + shift * LABEL_HEIGHT, LABEL_HEIGHT), size - 4) for shift in shifts]
    boxes = [(left - half, line - LABEL_HEIGHT + 3, left + half, line + 3) for line in lines]
    return next((box for box in boxes if not any(_overlap(box, other) for other in taken)), None)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
