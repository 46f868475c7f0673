"""The shape every benchmark returns, and how it is printed.

Each benchmark measures its figures *and* a baseline in the same run (the
machines are shared and noisy: a figure only means something next to a
reference taken a moment before on the same machine).
"""

from __future__ import annotations

import json
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
        def cell(value: Any) -> str:
            if isinstance(value, float):
                return f"{value:,.3f}" if abs(value) < 100 else f"{value:,.0f}"
            return str(value)

        header = list(self.columns)
        body = [[cell(row.get(column, "")) for column in header] for row in self.rows]
        widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(header)]
        lines = [
            "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)),
            "  ".join("-" * w for w in widths),
        ]
        lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in body]
        lines += [f"note: {note}" for note in self.notes]
        return f"{self.name}\n" + "\n".join(lines)
