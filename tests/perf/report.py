"""The shape every benchmark returns, and how it is printed.

Each benchmark measures its figures *and* a baseline in the same run (the
machines are shared and noisy: a figure only means something next to a
reference taken a moment before on the same machine).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Report:
    """A benchmark's result: rows of figures, the columns to print, and notes.

    ``rows`` are flat dicts; their keys are the JSON keys issues ask for
    (e.g. ``clients``, ``p50_ms``). ``columns`` orders them for the table.
    """

    name: str
    columns: list[str]
    rows: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({"benchmark": self.name, "rows": self.rows, "notes": self.notes})

    def to_table(self) -> str:
        def cell(column: str, value: Any) -> str:
            if isinstance(value, float):
                if column.endswith("_rate"):  # goals such as 99.9% need the fourth digit
                    return f"{value:.4f}"
                return f"{value:,.3f}" if abs(value) < 100 else f"{value:,.0f}"
            return str(value)

        header = list(self.columns)
        body = [[cell(column, row.get(column, "")) for column in header] for row in self.rows]
        widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(header)]
        lines = [
            "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)),
            "  ".join("-" * w for w in widths),
        ]
        # Names (text) read from the left, figures line up on the right.
        numeric = [
            all(not isinstance(row.get(column), str) for row in self.rows) for column in header
        ]
        lines += [
            "  ".join(
                c.rjust(w) if right else c.ljust(w)
                for c, w, right in zip(r, widths, numeric, strict=True)
            )
            for r in body
        ]
        lines += [f"note: {note}" for note in self.notes]
        return f"{self.name}\n" + "\n".join(lines)


def percentile(samples: list[float], fraction: float) -> float:
    """The sample at ``fraction`` (0..1) of the sorted list (no interpolation)."""
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def timing_row(name: str, samples: list[float], baseline: list[float]) -> dict[str, Any]:
    """One timing (ms) with its p50/p99 next to the same run's baseline, and their ratio."""
    base_p50 = statistics.median(baseline)
    return {
        "measure": name,
        "n": len(samples),
        "p50_ms": statistics.median(samples),
        "p99_ms": percentile(samples, 0.99),
        "baseline_p50_ms": base_p50,
        "baseline_p99_ms": percentile(baseline, 0.99),
        "p50_over_baseline": statistics.median(samples) / base_p50 if base_p50 else 0.0,
    }


def rss_mib(pid: int) -> float:
    """Process ``pid``'s resident memory now, in MiB (``VmRSS``; 0.0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0
