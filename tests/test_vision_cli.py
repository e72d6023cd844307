"""``incan-companion scan`` and ``stickers``; the sticker sheet scans back to every card."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
import zxingcpp

from companion.cards import ALL_IDS
from incan_companion.cli import main
from ui.kivyfree.words import card_name
from vision import render
from vision.decode import Decoder
from vision.render import Scene
from vision.stickers import DEFAULT_SIZE_MM, card_modules, label_size_mm


def write(path: Path, scene: Scene) -> Path:
    cv2.imwrite(str(path), render.render(scene))
    return path


def test_scan_json_prints_one_object_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    a = write(tmp_path / "a.png", Scene(card="T11A", angle=33.0))
    b = write(tmp_path / "b.jpg", Scene(card="SPIDER2", tilt=0.3, tilt_dir=80.0))
    c = write(tmp_path / "c.png", Scene(sticker="https://example.com"))
    d = write(tmp_path / "d.png", Scene())
    assert main(["scan", "--json", str(a), str(b), str(c), str(d)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["file"], x["card"]) for x in lines] == [
        (str(a), "T11A"), (str(b), "SPIDER2"), (str(c), None), (str(d), None)]
    assert all(isinstance(x["ms"], float) and x["ms"] >= 0 for x in lines)
    assert lines[2]["foreign"] == ["https://example.com"]


def test_scan_without_json_says_the_card_in_words(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.png", Scene(card="A3"))
    assert main(["scan", str(a)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{a}: A3 (artifact 3)")


def test_scan_of_a_missing_or_unreadable_file_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path / "a.png", Scene(card="A3"))
    assert main(["scan", str(good), str(tmp_path / "nope.png")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "nope.png" in captured.err and "Traceback" not in captured.err
    text = tmp_path / "notes.png"
    text.write_text("hello")
    assert main(["scan", str(text)]) == 2
    assert "not an image" in capsys.readouterr().err


def test_the_vision_cli_module_imports_nothing_heavy() -> None:
    heavy = ("cv2", "numpy", "zxingcpp", "pyzbar", "reportlab")
    code = ("import sys, argparse\n"
            "from incan_companion.commands import vision\n"
            "p = argparse.ArgumentParser(); vision.register(p.add_subparsers())\n"
            f"bad = [m for m in {heavy!r} if m in sys.modules]\n"
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_scan_through_the_real_command(tmp_path: Path) -> None:
    a = write(tmp_path / "a.png", Scene(card="ROCKS1"))
    done = subprocess.run([sys.executable, "-m", "incan_companion", "scan", "--json", str(a)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr + done.stdout
    assert json.loads(done.stdout)["card"] == "ROCKS1"
    assert done.stderr == ""  # nothing at exit either (no binding's leak report)


def test_a_picture_too_large_to_decode_is_refused_before_it_is(tmp_path: Path) -> None:
    """A 50-megapixel limit (a 16000 x 16000 PNG of 250 KB took 1.5 GB)."""
    from vision import MAX_IMAGE_PIXELS

    side = int(MAX_IMAGE_PIXELS**0.5) + 1
    big = tmp_path / "big.png"
    _ok, png = cv2.imencode(".png", np.zeros((side, side), np.uint8))
    big.write_bytes(png.tobytes())
    done = subprocess.run([sys.executable, "-m", "incan_companion", "scan", str(big)],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"incan-companion: {big}: more than 50 megapixels\n"


def test_scan_json_stays_utf8_for_a_file_name_that_is_not(tmp_path: Path) -> None:
    """A name's stray byte (Latin-1 é) went out raw inside the JSON line."""
    import os

    a = tmp_path / os.fsdecode(b"caf\xe9.png")
    a.write_bytes(cv2.imencode(".png", render.render(Scene(card="ROCKS1")))[1].tobytes())
    done = subprocess.run([sys.executable, "-m", "incan_companion", "scan", "--json", str(a)],
                          capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.decode("utf-8"))  # strict: no stray byte
    assert (said["file"], said["card"]) == (str(a), "ROCKS1")
    assert b"caf\\udce9.png" in done.stdout


def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    """`scan` read from it and `stickers --out` wrote to it, each waiting for ever
    for the other end; a time-out here fails the test instead of the suite."""
    import os

    from helpers import run

    pipe = tmp_path / "pipe.png"
    os.mkfifo(pipe)
    for args in (["scan", str(pipe)], ["stickers", "--out", str(pipe)]):
        done = run([sys.executable, "-m", "incan_companion", *args], text=True, seconds=60)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.strip() == f"incan-companion: {pipe}: not a file", args


# -- stickers ------------------------------------------------------------------------

def test_every_card_sticker_is_a_version_1_symbol_of_its_payload() -> None:
    for card in ALL_IDS:
        mods = card_modules(card)
        assert mods.shape == (21, 21)
        img = np.pad(np.where(mods, 0, 255).astype(np.uint8), 4, constant_values=255)
        img = cv2.resize(img, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
        (code,) = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode)
        assert code.text == f"IG:{card}"
        assert code.ec_level == "H"


def pdf_pages(pdf: Path, dpi: int) -> list[np.ndarray]:
    prefix = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", str(pdf), str(prefix)],
                   check=True)
    pages = sorted(pdf.parent.glob(prefix.name + "-*.pgm"))
    return [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in pages]


@pytest.mark.parametrize(("paper", "size"), [("a4", None), ("letter", "18"), ("a4", "40")])
def test_the_sticker_sheet_scans_back_to_every_card(
    tmp_path: Path, paper: str, size: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert shutil.which("pdftoppm"), "poppler-utils (pdftoppm) is needed to render the PDF"
    pdf = tmp_path / "stickers.pdf"
    args = ["stickers", "--out", str(pdf), "--paper", paper] + (["--size", size] if size else [])
    assert main(args) == 0
    said = capsys.readouterr()
    pages_said = {None: 4, "18": 6, "40": 9}[size]  # pages for the 35 labels
    assert said.out == f"{pdf}: {pages_said} page(s)\n"
    reach = {None: None, "18": 7, "40": 16}[size]  # cm: the 10 cm zone, measured at 25 mm
    assert said.err == ("" if reach is None else
                        f"{pdf}: note: a Pi camera takes a sticker's QR to be 25 mm wide: at {size}"
                        f" mm its scan zone reaches {reach} cm from the spot, not 10"
                        " (docs/cards-and-stickers.md)\n")
    pages = pdf_pages(pdf, dpi=100)
    want_page = (827, 1170) if paper == "a4" else (850, 1100)  # at 100 dpi
    read: list[str] = []
    decoder = Decoder(skip_unchanged=False)
    for page in pages:
        assert page.shape[::-1] == want_page
        read += list(decoder.decode(page).cards)
    assert sorted(read) == sorted(ALL_IDS)
    assert len(read) == len(set(read))


def test_each_sticker_reads_alone_and_carries_its_name(tmp_path: Path) -> None:
    pdf = tmp_path / "s.pdf"
    assert main(["stickers", "--out", str(pdf)]) == 0
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    for card in ALL_IDS:
        assert card_name(card) in text and card in text
    # Cut the stickers apart along the page's grey cut lines and read each one.
    pages = pdf_pages(pdf, dpi=150)
    alone: list[str] = []
    w_mm, h_mm = label_size_mm(DEFAULT_SIZE_MM, micro=True)
    for page in pages:
        edges = (page < 235) & (page > 120)  # the light grey outlines
        _n, _, stats, _ = cv2.connectedComponentsWithStats(edges.astype(np.uint8))
        for x, y, w, h, _area in stats[1:]:
            if abs(w - w_mm / 25.4 * 150) < 8 and abs(h - h_mm / 25.4 * 150) < 8:
                crop = page[y : y + h, x : x + w]
                got = zxingcpp.read_barcodes(crop, formats=zxingcpp.BarcodeFormat.QRCode)
                alone += [f"{g.format.name}:{g.text}" for g in got]
    # each label carries both symbols, each with the card's payload
    assert sorted(alone) == sorted(f"{kind}:IG:{c}" for c in ALL_IDS
                                   for kind in ("QRCode", "MicroQRCode"))


def test_bad_sticker_options_are_bad_input(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stickers", "--out", str(tmp_path / "x.pdf"), "--size", "5"]) == 2
    assert "between" in capsys.readouterr().err
    assert main(["stickers", "--out", str(tmp_path / "no" / "dir" / "x.pdf")]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_the_help_states_the_real_default_size(capsys: pytest.CaptureFixture[str]) -> None:

    with pytest.raises(SystemExit):
        main(["stickers", "--help"])
    assert f"(default {DEFAULT_SIZE_MM:g})" in " ".join(capsys.readouterr().out.split())


def test_the_sheet_of_one_box_prints_only_its_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf = tmp_path / "s.pdf"
    assert main(["stickers", "--out", str(pdf), "--deck", "14-treasures"]) == 0
    pages = pdf_pages(pdf, dpi=100)
    decoder = Decoder(skip_unchanged=False)
    read = [c for page in pages for c in decoder.decode(page).cards]
    assert sorted(read) == sorted(c for c in ALL_IDS if c != "T17")
    capsys.readouterr()
    assert main(["stickers", "--out", str(pdf), "--deck", "box"]) == 2
    assert capsys.readouterr().err == (
        "incan-companion: stickers: unknown deck 'box' (one of incan-gold, 14-treasures)\n"
    )


def test_the_sheet_draws_each_new_label_centred_in_a_card_outline(tmp_path: Path) -> None:
    from vision.stickers import CARD_MM, sheet_places

    pdf = tmp_path / "s.pdf"
    assert main(["stickers", "--out", str(pdf)]) == 0
    (page, *_) = pdf_pages(pdf, dpi=150)
    k = 150 / 25.4
    places = [p for p in sheet_places("a4", DEFAULT_SIZE_MM, True, len(ALL_IDS)) if p.page == 0]
    assert len(places) == 9
    for place in places:
        card, label = place.card, place.label
        assert card is not None and (card.w, card.h) == CARD_MM
        assert label.x - card.x == pytest.approx(card.x + card.w - label.x - label.w)
        # the card's left edge is a dashed light grey line: about half its length drawn
        x = round(card.x * k)
        column = page[round((card.y + 5) * k): round((card.y + card.h - 5) * k), x - 1: x + 2]
        drawn = (column < 250).any(axis=1).mean()
        assert 0.3 < drawn < 0.8
    qr_only = tmp_path / "q.pdf"
    assert main(["stickers", "--out", str(qr_only), "--qr-only"]) == 0
    assert all(p.card is None for p in sheet_places("a4", DEFAULT_SIZE_MM, False, 35))


def test_a_full_disk_leaves_no_cut_sheet_and_spoils_none_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 1 (the disk, not the input: was exit 2 and an empty PDF left behind)."""
    import builtins

    from incan_companion.commands import vision as command

    pdf = tmp_path / "stickers.pdf"
    pdf.write_bytes(b"%PDF- an older sheet")

    def full_disk(path: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
        builtins.open(path, mode).close()  # the file beside it is made, as on a real disk
        return builtins.open("/dev/full", "wb")  # whose every write is ENOSPC

    monkeypatch.setattr(command, "open", full_disk, raising=False)
    assert main(["stickers", "--out", str(pdf)]) == 1
    err = capsys.readouterr().err
    assert err == (f"incan-companion: error: [Errno 28] No space left on device: '{pdf}'\n")
    assert [p.name for p in tmp_path.iterdir()] == ["stickers.pdf"]
    assert pdf.read_bytes() == b"%PDF- an older sheet"
