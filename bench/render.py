"""The virtual table's frames: what the demo's and a desktop's simulated camera cost.

    python bench/render.py [--cards 70]

The virtual table (``vision.sources.VirtualTable``) renders every frame the
demo, ``run --camera virtual`` and the vision tests read. Timed here, in CPU
seconds (OpenCV's own threads included): cards slid onto the spot one after
another as the demo does it (a hand holding each, motion blur, then rest;
now and then a hand passing over and the spot cleared), against frames of
a card lying still, whose scene is kept and which cost only their fresh
sensor noise: the floor of any frame. The frames' SHA-256 is printed, so a
change that should not change a pixel can be seen not to.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.cards import ALL_IDS
from vision.sources import VirtualTable

FRAMES_A_CARD = 12


def sliding(cards: int) -> tuple[int, float, str]:
    """Frames, CPU seconds and the frames' digest of ``cards`` placements."""
    table = VirtualTable(seed=3, fps=None)
    digest = hashlib.sha256()
    frames = 0
    started = time.process_time()
    for i in range(cards):
        table.place(ALL_IDS[i % len(ALL_IDS)])
        if i % 5 == 2:
            table.hand_over()
        for _ in range(FRAMES_A_CARD):
            digest.update(table.next_image().tobytes())
            frames += 1
        if i % 7 == 3:
            table.place(None)
            digest.update(table.next_image().tobytes())
            frames += 1
    return frames, time.process_time() - started, digest.hexdigest()


def still(frames: int) -> float:
    """CPU seconds of ``frames`` frames of one card at rest."""
    table = VirtualTable(seed=3, fps=None)
    table.place(ALL_IDS[0])
    for _ in range(FRAMES_A_CARD):  # the slide and the hand's withdrawal
        table.next_image()
    started = time.process_time()
    for _ in range(frames):
        table.next_image()
    return time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=70)
    args = parser.parse_args()
    frames, cpu, digest = sliding(args.cards)
    rest = still(200) / 200
    each = cpu / frames
    print(f"virtual table, {args.cards} cards slid in, {frames} frames (640x480):")
    print(f"  cards sliding in   {each * 1000:6.1f} ms CPU a frame  "
          f"{each / rest:5.2f}x a still frame")  # fmt: skip
    print(f"  a card lying still {rest * 1000:6.1f} ms CPU a frame   1.00x")
    print(f"  frames' sha256 {digest[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
