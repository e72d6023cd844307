"""The arrows point one way: the core loads nothing outward, in any way.

import-linter (``lint-imports`` in ./test.sh, contracts in pyproject.toml)
checks every ``import`` statement, including those inside functions. These
tests catch what it cannot see: modules loaded by name at run time, and what
a fresh interpreter actually has loaded after importing the core.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from helpers import paced

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "companion"
OUTWARD = ("incan_companion", "ui", "vision", "hardware", "storage", "kivy", "cv2", "numpy",
           "gpiozero", "zxingcpp", "pyzbar", "reportlab", "picamera2", "sqlite3", "tomllib")
# What the storage adapter may not load: it knows the core and nothing else.
BESIDE_STORAGE = ("incan_companion", "ui", "vision", "hardware", "kivy", "cv2", "numpy",
                  "gpiozero", "zxingcpp", "pyzbar", "reportlab", "picamera2")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string nodes that are docstrings (prose may name other packages)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _loads_by_name(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in ("import_module", "__import__", "find_spec", "spec_from_file_location"):
                problems.append(f"{path.name}:{node.lineno}: {name}()")
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
            and node.value.split(".")[0] in OUTWARD
            and node.value.replace(".", "").replace("_", "").isalnum()
        ):
            problems.append(f"{path.name}:{node.lineno}: {node.value!r}")
    return problems


def test_the_core_loads_no_module_by_name() -> None:
    problems = [p for path in sorted(CORE.rglob("*.py")) for p in _loads_by_name(path)]
    assert problems == []


def test_the_check_finds_a_module_loaded_by_name(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text('"""Mentions vision in prose."""\nimport importlib\n'
                      'm = importlib.import_module("vision.scanner")\n')
    assert _loads_by_name(sneaky) == [
        "sneaky.py:3: import_module()",
        "sneaky.py:3: 'vision.scanner'",
    ]


def _imports_nothing_of(package: str, forbidden: tuple[str, ...]) -> list[str]:
    """Import every module of ``package`` in a fresh interpreter (so a new one
    cannot slip past), and fail if any of ``forbidden`` got loaded; the modules."""
    modules = sorted(f"{package}.{p.stem}" for p in (ROOT / package).glob("*.py")
                     if p.stem != "__init__")  # fmt: skip
    code = (
        f"import sys\nimport {', '.join(modules)}\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {forbidden!r})\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=False, timeout=paced(60))
    assert done.returncode == 0, done.stdout + done.stderr
    return modules


def test_importing_the_core_loads_nothing_outward() -> None:
    modules = _imports_nothing_of("companion", OUTWARD)
    assert "companion.odds" in modules and len(modules) >= 14


def test_the_import_contracts_are_declared_and_kept() -> None:
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    kinds = sorted(c["type"] for c in contracts)
    assert kinds == ["forbidden"] * 5 + ["independence", "layers"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    assert layers == ["incan_companion", "web", "ui", "vision | hardware | storage", "companion"]
    adapters = next(c for c in contracts if c["type"] == "independence")["modules"]
    assert adapters == ["vision", "hardware", "storage"]
    storage = next(c for c in contracts if c.get("source_modules") == ["storage"])
    assert tuple(storage["forbidden_modules"]) == BESIDE_STORAGE
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], capture_output=True, text=True, cwd=ROOT,
                          check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "7 kept, 0 broken" in done.stdout


def test_importing_storage_loads_only_the_core() -> None:
    modules = _imports_nothing_of("storage", BESIDE_STORAGE)
    assert {"storage.lock", "storage.log", "storage.schema", "storage.history"} <= set(modules)
