#!/usr/bin/env python3
"""Rasterise the table's pictograms into ``ui/icons/`` (or ``--out DIR``).

The pictograms are game-icons.net's (CC BY 3.0; the authors are listed in
``ICONS`` and in the README), taken from the npm registry's
``@iconify-json/game-icons`` package at a fixed version, so running this
again writes the same pictures. Each is drawn white on transparent at
``SIZE`` px: the app tints it (a Kivy ``Image``'s ``color`` multiplies the
white), so one file serves every card colour.

    npm pack @iconify-json/game-icons@1.2.4          # game-icons-1.2.4.tgz, here
    .venv/bin/pip install cairosvg                   # only for this script
    .venv/bin/python scripts/make_icons.py           # npm pack in a temporary folder
    .venv/bin/python scripts/make_icons.py --icons package/icons.json --out DIR
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "@iconify-json/game-icons@1.2.4"
SIZE = 128  # px: twice the largest a path tile draws one at, so it stays sharp
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "ui" / "icons"

#: Our file name: (game-icons.net name, its author). The hazards by the
#: engine's own names (companion.cards), then the gems, the artifact, the tent.
ICONS: dict[str, tuple[str, str]] = {
    "snake": ("snake", "Lorc"),
    "spider": ("hanging-spider", "Lorc"),
    "mummy": ("mummy-head", "Delapouite"),
    "fire": ("flame", "Carl Olsen"),
    "rocks": ("falling-rocks", "Delapouite"),
    "gem": ("cut-diamond", "Lorc"),
    "artifact": ("colombian-statue", "Delapouite"),
    "tent": ("camping-tent", "Delapouite"),
}


def _icons_json(given: Path | None, work: Path) -> Path:
    if given is not None:
        return given
    subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=work, check=True,
                   capture_output=True)
    tgz = next(work.glob("*.tgz"))
    with tarfile.open(tgz) as tar:
        tar.extract("package/icons.json", work, filter="data")
    return work / "package" / "icons.json"


def svg(body: str, width: int, height: int) -> str:
    """An iconify icon's body as a whole SVG document, drawn white."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" '
            f'viewBox="0 0 {width} {height}">'
            f'{body.replace("currentColor", "#ffffff")}</svg>')


def make(icons_json: Path, out: Path) -> list[Path]:
    import cairosvg  # a tool of this script only, not of the app

    data = json.loads(icons_json.read_text(encoding="utf-8"))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for ours, (theirs, _author) in ICONS.items():
        icon = data["icons"][theirs]
        doc = svg(icon["body"], icon.get("width", data.get("width", 512)),
                  icon.get("height", data.get("height", 512)))
        path = out / f"{ours}.png"
        cairosvg.svg2png(bytestring=doc.encode(), write_to=str(path),
                         output_width=SIZE, output_height=SIZE)
        written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--icons", type=Path, help="the package's icons.json (else npm pack)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        for path in make(_icons_json(args.icons, Path(work)), args.out):
            print(path)


if __name__ == "__main__":
    main()
