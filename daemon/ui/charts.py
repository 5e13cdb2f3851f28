"""Small line charts as inline SVG, drawn on the server: no script, no chart library.

A chart is a few series over the same time axis; each line is scaled to
the chart's shared maximum, rounded up to a round number. The value axis
is labelled with its unit and three ticks (0, half, top), the time axis
with how long before the last sample each point was taken; the figures
beside the legend are the latest values, so the picture shows the trend
and the text the number.
"""

from __future__ import annotations

import math
from html import escape

from markupsafe import Markup

from .health import Chart, Sample

__all__ = ["draw", "nice_top"]

WIDTH, HEIGHT = 420, 130
#: The plot's margins: the value axis's labels on the left, the time axis's below.
LEFT, RIGHT, TOP, BOTTOM = 50, 10, 8, 30
#: Axis lines, ticks and their labels.
_AXIS = 'stroke="#6b7278" stroke-width="1"'
_TEXT = 'fill="#4a5157" font-size="10" font-family="system-ui, sans-serif"'
#: Line colours, in series order (distinct for the colour-blind: blue, orange, teal, purple).
COLOURS = ("#1f6fb2", "#d9822b", "#2a9d8f", "#7b4fa0", "#b23a48", "#5c6b73")


#: How a series is named in its legend (an outcome is named by itself).
LABELS = {
    "index_behind": "messages behind",
    "rss_mib": "MiB resident",
    "connections": "connections",
    "open_files": "open files",
    "appended": "appended",
    "llm_calls": "calls",
    "prompt_tokens": "prompt",
    "cached_tokens": "cached",
    "completion_tokens": "completion",
}


def _label(name: str) -> str:
    return LABELS.get(name, name.removeprefix("outcome:").replace("_", " "))


def _x(at: float, first: float, span: float) -> float:
    return LEFT + (at - first) / span * (WIDTH - LEFT - RIGHT)


def _y(value: float, top: float) -> float:
    return HEIGHT - BOTTOM - value / top * (HEIGHT - TOP - BOTTOM)


def _points(samples: list[Sample], name: str, top: float) -> str:
    """The polyline's points: time left to right, value bottom to top."""
    first, last = samples[0].at, samples[-1].at
    span = (last - first) or 1.0
    out = [
        f"{_x(s.at, first, span):.1f},{_y(s.values[name], top):.1f}"
        for s in samples
        if name in s.values
    ]
    if len(out) == 1:  # one sample: a short flat line, so it shows
        left, height = out[0].split(",")
        out.append(f"{float(left) + 6:.1f},{height}")
    return " ".join(out)


def nice_top(peak: float) -> float:
    """The value axis's top: ``peak`` rounded up to 1, 2, 2.5 or 5 times a power of ten."""
    if peak <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(peak))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= peak)


def _figure(value: float) -> str:
    """A tick's label: short (``1.5k``, ``2M``), exact for small whole numbers."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= size:
            return f"{value / size:g}{suffix}"
    return f"{value:g}"


def _axes(unit: str, top: float, seconds: float) -> str:
    """Both axes, their ticks and labels, the value axis titled with ``unit``."""
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    parts = [
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}" {_AXIS}/>',
        f'<line x1="{LEFT}" y1="{bottom}" x2="{right}" y2="{bottom}" {_AXIS}/>',
    ]
    for value in (0.0, top / 2, top):
        y = _y(value, top)
        parts.append(f'<line x1="{LEFT - 3}" y1="{y:.1f}" x2="{LEFT}" y2="{y:.1f}" {_AXIS}/>')
        parts.append(
            f'<text x="{LEFT - 5}" y="{y + 3:.1f}" text-anchor="end" {_TEXT}>{_figure(value)}</text>'
        )
    minutes = seconds >= 120
    scale, unit_of_time = (60.0, "min") if minutes else (1.0, "s")
    for share in (0.0, 0.5, 1.0):
        x = LEFT + share * (right - LEFT)
        ago = (1 - share) * seconds / scale
        label, anchor = ("now", "end") if share == 1.0 else (f"-{ago:.0f}", "middle")
        parts.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 3}" {_AXIS}/>')
        parts.append(
            f'<text x="{x:.1f}" y="{bottom + 13}" text-anchor="{anchor}" {_TEXT}>{label}</text>'
        )
    parts.append(
        f'<text x="{(LEFT + right) / 2:.0f}" y="{HEIGHT - 3}" text-anchor="middle" {_TEXT}>'
        f"time ({unit_of_time} before the last sample)</text>"
    )
    middle = (TOP + bottom) / 2
    parts.append(
        f'<text x="11" y="{middle:.0f}" text-anchor="middle" transform="rotate(-90 11 {middle:.0f})" '
        f"{_TEXT}>{escape(unit)}</text>"
    )
    return "".join(parts)


def _latest(samples: list[Sample], name: str) -> float:
    return next((s.values[name] for s in reversed(samples) if name in s.values), 0.0)


def draw(chart: Chart, samples: list[Sample]) -> Markup:
    """``chart`` over ``samples`` as an SVG element with its legend (empty samples: a note)."""
    if not samples:
        return Markup('<p class="muted">no sample yet</p>')
    names = chart.names(samples)
    peak = max((s.values.get(n, 0.0) for s in samples for n in names), default=0.0)
    top = nice_top(peak)  # all zero: flat lines at the bottom of a 0-1 axis
    lines, legend = [], []
    for name, colour in zip(names, COLOURS * 4, strict=False):
        lines.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{_points(samples, name, top)}"/>'
        )
        value = _latest(samples, name)
        legend.append(
            f'<span class="key" style="border-color:{colour}">{escape(_label(name))} '
            f"<b>{value:,.0f}</b></span>"
        )
    seconds = samples[-1].at - samples[0].at
    over = f"{seconds / 60:.0f} min" if seconds >= 120 else f"{seconds:.0f} s"
    title = escape(f"{chart.title} ({chart.unit}), {len(samples)} samples, max {peak:,.0f}")
    svg = (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{title}">'
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" class="frame"/>'
        + _axes(chart.unit, top, seconds)
        + "".join(lines)
        + "</svg>"
    )
    span = f'<span class="muted">{escape(chart.unit)}, over the last {over}</span>'
    return Markup(svg + '<div class="legend">' + "".join(legend) + span + "</div>")
