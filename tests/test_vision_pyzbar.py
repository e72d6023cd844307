"""A device where zxing-cpp cannot be loaded: pyzbar reads the QR half of each label.

The frames are bench/photo.py's photographed stickers (new labels: a Micro QR
over a QR). The subprocess runs with ``zxingcpp`` unloadable, as on a machine
whose zxing-cpp wheel is missing or broken, and imports the decoder and the
scanner as the app does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import cv2
import pytest

from companion.notices import CameraStatus
from tests.helpers import load_bench
from vision.decode import PYZBAR, ZXING, Decoder
from vision.scanner import Scanner
from vision.sources import NoSource

photo = load_bench("photo")
ROOT = Path(__file__).resolve().parent.parent
NEW = photo.VARIANTS["new"]
# shot index -> (the card in view, what zxing-cpp reads, what pyzbar reads)
SHOTS = {
    0: ("ROCKS2", ("ROCKS2",), ("ROCKS2",)),  # both symbols in view
    6: ("SPIDER1", ("SPIDER1",), ()),  # only the Micro QR reads: zbar has none
    7: ("ROCKS2", ("ROCKS2",), ("ROCKS2",)),
    2: (None, (), ()),  # a card with art and no sticker
}


def frame(index: int) -> object:
    return photo.frame(photo.shot(16, index), NEW)


def test_the_shots_are_the_ones_described() -> None:
    assert {i: photo.shot(16, i).card for i in SHOTS} == {i: c for i, (c, _, _) in SHOTS.items()}


@pytest.mark.parametrize("index", sorted(SHOTS))
def test_pyzbar_reads_the_qr_half_and_zxing_both(index: int) -> None:
    _card, by_zxing, by_pyzbar = SHOTS[index]
    image = frame(index)
    assert Decoder(skip_unchanged=False, reader=ZXING).decode(image).cards == by_zxing
    got = Decoder(skip_unchanged=False, reader=PYZBAR).decode(image)
    assert got.cards == by_pyzbar
    assert got.foreign == ()
    assert all(r.decoder.startswith("pyzbar") for r in got.reads)


def test_an_unknown_reader_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown reader 'zbar'"):
        Decoder(reader="zbar")


def test_the_scanner_says_when_it_reads_with_pyzbar() -> None:
    assert Scanner(NoSource(), print, decoder=Decoder(reader=ZXING)).ok_status is CameraStatus.OK
    assert Scanner(NoSource(), print,
                   decoder=Decoder(reader=PYZBAR)).ok_status is CameraStatus.QR_ONLY


CHILD = textwrap.dedent("""
    import json, sys
    sys.modules["zxingcpp"] = None  # its import fails, as where the wheel cannot load
    from vision.decode import Decoder, best_reader
    from vision.scanner import Scanner
    from vision.sources import NoSource, load_image

    placed = []
    scanner = Scanner(NoSource(), placed.append)
    out = {"reader": best_reader(), "decoder": scanner.decoder.reader,
           "status": scanner.ok_status.value, "frames": {}}
    for path in sys.argv[1:]:
        image = load_image(path)
        for _ in range(3):  # a card at rest: the tracker wants two reads
            scanner.process(image)
        out["frames"][path] = list(Decoder(skip_unchanged=False).decode(image).cards)
    out["placed"] = placed
    print(json.dumps(out))
""")


def test_without_zxing_cpp_the_scanner_imports_and_reads_with_pyzbar(tmp_path: Path) -> None:
    paths = []
    for index in sorted(SHOTS):
        path = tmp_path / f"shot{index}.png"
        assert cv2.imwrite(str(path), frame(index))  # type: ignore[call-overload]
        paths.append(str(path))
    done = subprocess.run([sys.executable, "-c", CHILD, *paths], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["reader"] == "pyzbar" and out["decoder"] == "pyzbar"
    assert out["status"] == "qr only"
    assert out["frames"] == {p: list(SHOTS[i][2]) for p, i in zip(paths, sorted(SHOTS),
                                                                  strict=True)}
    # shots 0 and 7 are both ROCKS2: it stays, so it is placed once
    assert out["placed"] == ["ROCKS2"]
