"""Every concept ``store/base/`` declares has its module, under the same name, in each engine.

Django's backends' shape (docs/design.md, "The store seam"): a concept is
found by its name in ``base/``, ``files/`` and ``postgres/``, and adding
one to both engines adds one module to each. An engine without a concept
says so with a flag of its ``features.py``, not by leaving the file out.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import reverie.store

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
