"""The documentation: the site built from docs/ by MkDocs, strictly (a broken link, a missing
page in the navigation or a docstring mkdocstrings cannot render fails the build), with every
variant's rules written from the engine's rulebook; and the README kept a landing page."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from senet.engine import VARIANTS
from senet.engine.rulebook import rulebook

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def text_of(page: Path) -> str:
    """A built page's words, without tags and entities, spaces collapsed."""
    words = html.unescape(re.sub(r"<[^>]+>", " ", page.read_text()))
    return re.sub(r"\s+", " ", words)


def test_mkdocs_build_strict_succeeds(site: Path) -> None:
    for page in ("index.html", "playing/index.html", "protocol/index.html", "journal/index.html"):
        assert (site / page).is_file(), page


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_has_a_rules_page_written_from_the_rulebook(site: Path, name: str) -> None:
    page = text_of(site / "variants" / name / "index.html")
    book = rulebook(name)

    def shown(text: str) -> bool:
        return re.sub(r"\s+", " ", text) in page

    for lang in ("en", "ru"):
        assert shown(book.summary(lang)), lang
        for clause in book.clauses:
            assert shown(f"{clause.id} — {clause.text(lang)}"), (lang, clause.id)
        for decision in book.decisions:
            assert shown(decision.key), (lang, decision.key)
            assert shown(decision.question(lang)), (lang, decision.key)
            assert shown(decision.answer(lang)), (lang, decision.key)
        for paragraph in book.history(lang).split("\n"):
            assert shown(paragraph.strip()), lang


def test_the_variant_pages_are_in_the_navigation(site: Path) -> None:
    index = (site / "variants" / "index.html").read_text()
    for name in VARIANTS:
        assert f'href="{name}/"' in index, name


def test_the_api_reference_is_written_from_the_docstrings(site: Path) -> None:
    from senet.engine.position import Position

    def words(text: str) -> str:
        return " ".join(re.findall(r"\w+", text))

    page = words(text_of(site / "reference" / "index.html"))
    first_line = (Position.legal_moves.__doc__ or "").strip().splitlines()[0]
    first_line = re.sub(r":\w+:`", "`", first_line)  # a Sphinx role reads as plain code
    assert "legal_moves" in page
    assert words(first_line) in page


def test_the_readme_is_a_landing_page() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 300
    # the quick start stays true and in view
    assert "bash scripts/serve" in readme
    assert "bash scripts/test" in readme
    # its table of variants, and the variants' index page, name every variant and no other
    assert set(re.findall(r"^\| `([\w-]+)` \|", readme, flags=re.M)) == set(VARIANTS)
    index = (ROOT / "docs" / "variants" / "index.md").read_text()
    assert set(re.findall(r"^\| \[`([\w-]+)`\]", index, flags=re.M)) == set(VARIANTS)
    # every picture it shows exists
    for image in re.findall(r'(?:\]\(|src=")(docs/[^)"]+)', readme):
        assert (ROOT / image).is_file(), image


#: a file of the repository named in backticks: `tests/web/test_deltas.py`, `sim/stats.py`,
#: `engine/rules.py::step`, `src/senet/sim/data/*.json`, `data/<variant>.json`
_NAMED_PATH = re.compile(
    r"`((?:[\w.<>*-]+/)+[\w.<>*-]+\.(?:py|js|json|md|html|css|toml|yml|npz|ini|conf))(?:::\w+)?`"
)


def exists(path: str) -> bool:
    """Whether the path names a file of the repository, written from its root, from src/,
    from the package or from one of its layers, or (docs pages) from docs/.  A placeholder
    (``<variant>``, ``*``, ``V``) stands for any name: there the folder must exist."""
    bases = [ROOT, ROOT / "docs", ROOT / "src", ROOT / "src" / "senet"]
    bases += [p for p in (ROOT / "src" / "senet").iterdir() if p.is_dir()]
    pattern = re.sub(r"<\w+>|\b[A-Z]\b", "*", path)
    if "*" in pattern:
        folder = pattern.rsplit("/", 1)[0]
        return any(p.is_dir() for base in bases for p in base.glob(folder))
    return any((base / path).is_file() for base in bases)


def test_every_file_the_docs_name_exists() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    missing = [
        f"{page.relative_to(ROOT)}: {path}"
        for page in pages
        for path in sorted(set(_NAMED_PATH.findall(page.read_text())))
        if not exists(path)
    ]
    assert not missing, "named in the docs but not in the repository:\n" + "\n".join(missing)


def test_the_command_line_page_has_every_commands_help(site: Path) -> None:
    from senet.cli import COMMAND_MODULES

    page = text_of(site / "cli" / "index.html")
    for name in COMMAND_MODULES:
        assert re.search(rf"usage: senet {name} \[", page, flags=re.I), name
