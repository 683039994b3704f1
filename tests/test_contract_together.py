"""The contract's check of the reified kinds together (`reified_together`),
which it runs on backends whose solver is a process per call: its expected
solutions are right, and a backend wrong on one kind is still named by kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest
from buggy_backends import XorAsOr

from csp import backends
from csp.backends.base import OUTSIDE
from csp.backends.sat import SATBackend
from csp.testing import brute_force
from csp.testing.contract import _reified_together
from csp.testing.contract import test_contract_model_language as contract_model_language
from csp.testing.language import OWN, joined, language_models, reified_together


def test_joined_is_what_brute_force_finds() -> None:
    kinds = ["Compare", "AllEqual", "Abs", "Logic"]
    alone = language_models("reified")
    assert joined({k: brute_force(alone[k]) for k in kinds}) == brute_force(
        reified_together(kinds))


def test_every_kind_but_their_own_variables_fits_together() -> None:
    with pytest.raises(ValueError, match="Circuit has variables of its own"):
        reified_together(["Compare", "Circuit"])
    assert OWN == {"Circuit", "Inverse", "Connected"}


class XorAsOrOutside(XorAsOr):
    """The wrong-on-Xor backend, said to run outside: the contract checks its
    reified kinds together first."""

    name: ClassVar[str] = "xor-as-or-outside"
    capabilities: ClassVar[frozenset[str]] = XorAsOr.capabilities | {OUTSIDE}


class SATOutside(SATBackend):
    """The SAT backend, said to run outside."""

    name: ClassVar[str] = "sat-outside"
    capabilities: ClassVar[frozenset[str]] = SATBackend.capabilities | {OUTSIDE}


@pytest.fixture
def outside() -> Iterator[None]:
    backends.register(XorAsOrOutside)
    backends.register(SATOutside)
    yield
    backends.unregister("xor-as-or-outside")
    backends.unregister("sat-outside")


@pytest.mark.usefixtures("outside")
def test_a_right_backend_agrees_together_and_passes() -> None:
    kinds = sorted(set(language_models("reified")) - OWN)
    assert _reified_together("sat-outside", kinds) is True
    assert _reified_together("sat", kinds) is None  # in this process: one kind at a time
    contract_model_language("sat-outside", "reified")


@pytest.mark.usefixtures("outside")
def test_a_kind_wrong_together_is_named_alone() -> None:
    kinds = sorted(set(language_models("reified")) - OWN)
    assert _reified_together("xor-as-or-outside", kinds) is False
    # Then each kind alone: the one at fault is named, with the constraint
    # its wrong solution violates.
    with pytest.raises(AssertionError, match=r"\('Logic', 'reified'\): .*violates Iff"):
        contract_model_language("xor-as-or-outside", "reified")
