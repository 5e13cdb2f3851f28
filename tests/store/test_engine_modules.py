"""Every concept ``store/base/`` declares has its module, under the same name, in each engine.

Django's backends' shape (docs/design.md, "The store seam"): a concept is
found by its name in ``base/``, ``files/`` and ``postgres/``, and adding
one to both engines adds one module to each. An engine without a concept
says so with a flag of its ``features.py``, not by leaving the file out.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import reverie.store
from reverie.store.base.tx import CONCEPTS, Tx

STORE = Path(reverie.store.__file__).parent
#: The group commit's own machinery, which every engine plugs into rather than provides.
SEAM = {"connector", "tx", "waiter"}
#: ``base/`` modules an engine provides only when its features say it has the concept.
BY_FEATURE = {
    "backup": "backs_up_data_dir",
    "cluster": "shared_members",
    "job_leases": "shared_members",
}


def _modules(folder: str) -> set[str]:
    return {p.stem for p in (STORE / folder).glob("*.py") if p.stem != "__init__"}


def test_the_seam_and_the_flags_name_modules_of_base() -> None:
    assert SEAM | BY_FEATURE.keys() <= _modules("base")


@pytest.mark.parametrize("engine", ["files", "postgres"])
def test_each_engine_has_a_module_per_concept_of_base(engine: str) -> None:
    features = importlib.import_module(f"reverie.store.{engine}.features").Features
    has = _modules(engine)
    wrong = {
        name: "missing" if expected else f"present, but features.{BY_FEATURE[name]} is False"
        for name in sorted(_modules("base") - SEAM)
        if (expected := name not in BY_FEATURE or getattr(features, BY_FEATURE[name]))
        != (name in has)
    }
    assert wrong == {}


def _tx_part(concept: str) -> type:
    """The class of ``Tx``'s calls that ``base/<concept>.py`` declares (``JournalTx``, ...)."""
    module = importlib.import_module(f"reverie.store.base.{concept}")
    parts = [
        v
        for k, v in vars(module).items()
        if k.endswith("Tx") and isinstance(v, type) and v.__module__ == module.__name__
    ]
    assert len(parts) <= 1, concept
    return parts[0] if parts else type(None)


def test_tx_composes_the_calls_of_every_concept_of_base_that_declares_them() -> None:
    declaring = {c for c in _modules("base") - SEAM if _tx_part(c) is not type(None)}
    assert set(CONCEPTS) == declaring
    assert all(issubclass(Tx, _tx_part(c)) for c in CONCEPTS)


@pytest.mark.parametrize("engine", ["files", "postgres"])
@pytest.mark.parametrize("concept", CONCEPTS)
def test_each_engine_module_answers_its_concepts_protocol_and_says_so_to_mypy(
    engine: str, concept: str
) -> None:
    """Every function the protocol names exists, and the module assigns itself to the protocol
    (``_answers: JournalSql = _this``) so that ``make typecheck`` checks their signatures."""
    protocol_name = _tx_part(concept).__name__.removesuffix("Tx") + "Sql"
    protocol = getattr(importlib.import_module(f"reverie.store.base.{concept}"), protocol_name)
    wanted = {n for n, v in vars(protocol).items() if callable(v) and not n.startswith("_")}
    module = importlib.import_module(f"reverie.store.{engine}.{concept}")
    assert wanted and wanted <= set(dir(module))
    declared = {
        (node.target.id, ast.unparse(node.annotation))
        for node in ast.walk(ast.parse(Path(module.__file__ or "").read_text()))
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    assert ("_answers", protocol_name) in declared


#: Concepts of ``base/`` with no behaviour of their own to conform to, and why.
NO_SUITE = {
    "features": "plain flags",
    "markers": "the keys of the journal's and message_pop's to-dos, checked in their files",
}


def test_every_concept_both_engines_provide_has_its_file_in_the_conformance_suite() -> None:
    suite = {
        p.stem.removeprefix("test_") for p in (Path(__file__).parent / "engines").glob("test_*.py")
    }
    shared = _modules("base") - SEAM - BY_FEATURE.keys() - NO_SUITE.keys()
    assert shared - suite == set()
