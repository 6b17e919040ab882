"""Which ruleset ids exist, which of them a fixture's ``"*"`` stands for, and what a
ruleset selected by the user (``--rules``: an id, an alias or a file) runs.

``"*"`` in a fixture's ``rulesets`` means every complete ruleset whose move layer is
orthodox chess: the non-abstract rulesets whose resolved ``scope.variant`` is
``orthodox``. The rulesets are read by ``reference_impl.rules``, the one reader of
``spec/`` (the harness keeps no second one that could disagree with it).

A ruleset **file** runs under its own id (the id the adapter is sent). Fixtures name
built-in ids, so a file whose id is not a built-in one borrows the fixtures of its
nearest built-in ancestor (``extends`` chain, nearest first, abstract ones skipped),
with that ancestor's expectations; a fixture naming the file's id itself keeps its own.
A file orthodox in its ``scope.variant`` also runs the ``"*"`` fixtures.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reference_impl.errors import RulesetError
from reference_impl.rules import list_rulesets, load_ruleset
from reference_impl.rules.files import YAML_SUFFIXES

#: ``"*"`` fixtures run under the first of these the adapter plays (then the rest in id order).
PREFERRED: tuple[str, ...] = ("fide-2023", "fide-2018", "uscf-7")
ORTHODOX = "orthodox"


@lru_cache(maxsize=1)
def concrete_rulesets() -> tuple[str, ...]:
    """Every complete (non-abstract) built-in ruleset id, sorted."""
    return tuple(sorted(r.id for r in list_rulesets()))


@lru_cache(maxsize=1)
def orthodox_rulesets() -> tuple[str, ...]:
    """The ids ``"*"`` expands to, the :data:`PREFERRED` ones first."""
    ids = [r.id for r in list_rulesets() if (r.data.get("scope") or {}).get("variant") == ORTHODOX]
    return tuple(sorted(ids, key=lambda i: (PREFERRED.index(i) if i in PREFERRED else len(PREFERRED), i)))


def canonical(ident: str) -> str:
    """The id an alias stands for (``fide`` -> ``fide-2023``); unknown names unchanged
    (an adapter may play a ruleset the spec does not have)."""
    try:
        return str(load_ruleset(ident).id)
    except RulesetError:
        return ident


@dataclass(frozen=True)
class Target:
    """A ruleset the user selected.

    ``id``: the ruleset the cases run under and the adapter is sent; ``name``: as given
    (id, alias or file path), what the reference adapter loads; ``borrows``: for a file
    whose id names no built-in ruleset, the built-in one whose fixtures it runs;
    ``orthodox``: a file with no built-in ancestor to borrow from whose ``"*"`` fixtures
    run under it.
    """

    id: str
    name: str
    borrows: str | None = None
    orthodox: bool = False

    @property
    def is_file(self) -> bool:
        return self.id != self.name


def is_file_name(name: str) -> bool:
    """Whether ``name`` names a ruleset file rather than an id (as ``load_ruleset`` reads it)."""
    return name.endswith(YAML_SUFFIXES) or "/" in name or "\\" in name


def target(name: str) -> Target:
    """What ``--rules NAME`` selects. A file is read now (RulesetError naming it if it is
    missing or bad); an unknown id is kept as given (an adapter may play it)."""
    if not is_file_name(name):
        return Target(canonical(name), canonical(name))
    rules = load_ruleset(name)
    orthodox = (rules.data.get("scope") or {}).get("variant") == ORTHODOX
    if rules.id in concrete_rulesets():
        return Target(rules.id, name, None, False)  # the built-in's own fixtures (and "*" through it)
    ancestors = [ident for ident in reversed(rules.chain[:-1]) if ident in concrete_rulesets()]
    if ancestors:  # "*" fixtures come through the ancestor when it is orthodox
        return Target(rules.id, name, ancestors[0], False)
    return Target(rules.id, name, None, orthodox)
