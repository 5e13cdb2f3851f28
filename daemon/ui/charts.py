"""Small line charts as inline SVG, drawn on the server: no script, no chart library.

A chart is a few series over the same time axis; each line is scaled to
the chart's shared maximum, and the figures beside the legend are the
latest values, so the picture shows the trend and the text the number.
"""

from __future__ import annotations

from html import escape

from markupsafe import Markup

from .health import Chart, Sample

__all__ = ["draw"]

WIDTH, HEIGHT, PAD = 420, 80, 4
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


def _points(samples: list[Sample], name: str, top: float) -> str:
    """The polyline's points: time left to right, value bottom to top."""
    first, last = samples[0].at, samples[-1].at
    span = (last - first) or 1.0
    out = []
    for s in samples:
        if name not in s.values:
            continue
        x = PAD + (s.at - first) / span * (WIDTH - 2 * PAD)
        y = HEIGHT - PAD - s.values[name] / top * (HEIGHT - 2 * PAD)
        out.append(f"{x:.1f},{y:.1f}")
    if len(out) == 1:  # one sample: a short flat line, so it shows
        left, height = out[0].split(",")
        out.append(f"{float(left) + 6:.1f},{height}")
    return " ".join(out)


def _latest(samples: list[Sample], name: str) -> float:
    return next((s.values[name] for s in reversed(samples) if name in s.values), 0.0)


def draw(chart: Chart, samples: list[Sample]) -> Markup:
    """``chart`` over ``samples`` as an SVG element with its legend (empty samples: a note)."""
    if not samples:
        return Markup('<p class="muted">no sample yet</p>')
    names = chart.names(samples)
    peak = max((s.values.get(n, 0.0) for s in samples for n in names), default=0.0)
    top = peak or 1.0  # all zero: flat lines at the bottom
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
        + "".join(lines)
        + "</svg>"
    )
    span = f'<span class="muted">{escape(chart.unit)}, over the last {over}</span>'
    return Markup(svg + '<div class="legend">' + "".join(legend) + span + "</div>")
