"""The layers of docs/design (each imports only from layers below it or its own): checked on the source, every
import statement included (those inside functions too), so the architecture stays what the folders say."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "plies"

LAYERS: list[tuple[str, set[str]]] = [
    ("contract, compiled core, drawing, language", {"game", "extras", "core", "_core", "_core_avx2", "draw", "i18n"}),
    ("rules", {"games"}),
    ("heuristics", {"heuristics"}),
    ("textbook search", {"search"}),
    ("engines", {"engine", "hexsearch"}),
    ("players", {"players"}),
    ("analysis", {"analysis"}),
    ("play", {"match", "tournament", "formats", "storage", "outfiles"}),
    ("training", {"train"}),
    ("front-ends", {"cli", "web", "net", "teach"}),
]
"""Lowest first.  Training sits above play because self-play runs matches; front-ends may use each other."""

LEVEL = {name: i for i, (_, names) in enumerate(LAYERS) for name in names}


def _part(module_path: Path) -> str:
    rel = module_path.relative_to(PACKAGE)
    return rel.parts[0].removesuffix(".py")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level plies part) of every import of plies in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)  # ['plies', 'engine', 'api']
    out = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names = [mod] if node.module else [f"{mod}.{a.name}" for a in node.names]
            if mod == "plies":
                names = [f"plies.{a.name}" for a in node.names]
        if isinstance(node, ast.Call) and _dotted(node.func) in ("importlib.import_module", "import_module") \
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            names = [node.args[0].value]  # an import by name is an import too
        for n in names:
            parts = n.split(".")
            if parts[0] == "plies" and len(parts) > 1:
                out.append((node.lineno, parts[1]))
    return out


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


REGISTRIES = {"plies.players": "players", "plies.heuristics": "heuristics"}
"""Entry-point groups and the part whose registry loads them: how a lower layer finds what a higher one defines
(player kinds in the front-ends and training, the engine's learned heuristic) without importing it by name."""


def test_registered_plug_ins_sit_above_their_registry_and_are_installed() -> None:
    import tomllib
    from importlib import import_module
    from importlib.metadata import entry_points

    project = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for group, registry in REGISTRIES.items():
        declared = project["entry-points"][group]
        assert {ep.name: ep.value for ep in entry_points(group=group)} == declared, f"reinstall: {group} is stale"
        for name, module in declared.items():
            part = module.split(".")[1]
            assert LEVEL[part] >= LEVEL[registry], f"{group} {name}: {module} is below {registry}"
            import_module(module)  # it exists and imports


def test_every_part_has_a_layer() -> None:
    parts = {_part(p) for p in PACKAGE.rglob("*.py")} - {"__init__", "__main__"}
    assert parts <= set(LEVEL), f"parts without a layer: {sorted(parts - set(LEVEL))}"


def test_no_module_imports_a_layer_above_it() -> None:
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        part = _part(path)
        if part in ("__init__", "__main__"):
            continue
        for line, target in _imports(path):
            if target in LEVEL and LEVEL[target] > LEVEL[part]:
                bad.append(f"{path.relative_to(PACKAGE)}:{line} ({LAYERS[LEVEL[part]][0]}) imports plies.{target} "
                           f"({LAYERS[LEVEL[target]][0]})")
    assert not bad, "\n".join(bad)


def test_the_engine_and_rules_import_no_training_or_numba() -> None:
    import subprocess
    import sys

    code = ("import sys, plies.engine, plies.games.othello, plies.heuristics; "
            "print(sorted(m for m in sys.modules if m.startswith(('plies.train', 'plies.players', 'plies.formats', "
            "'numba'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
