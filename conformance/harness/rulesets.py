"""Which ruleset ids exist, and which of them a fixture's ``"*"`` stands for.

``"*"`` in a fixture's ``rulesets`` means every complete ruleset whose move layer is
orthodox chess: the non-abstract rulesets whose resolved ``scope.variant`` is
``orthodox``. The rulesets are read by ``reference_impl.rules``, the one reader of
``spec/`` (the harness keeps no second one that could disagree with it).
"""

from __future__ import annotations

from functools import lru_cache

from reference_impl.errors import RulesetError
from reference_impl.rules import list_rulesets, load_ruleset

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
