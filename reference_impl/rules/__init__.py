"""Rulesets: find, load, validate and resolve the YAML tables of ``spec/``.

>>> r = load_ruleset("fide")          # id, alias, or path to a .yaml file
>>> r.id, r.chain
('fide-2023', ('orthodox', 'fide-2023'))

``r.model`` is the ruleset as typed values (:mod:`.model`), which the interpreter reads;
``r.data`` the resolved mapping (``extends`` applied) behind it, for the rules tooling.
:func:`derive_ruleset` makes a modified copy with the same merge rules. Every problem
raises :class:`RulesetError`.
"""

from __future__ import annotations

from reference_impl.errors import RulesetError

from .files import Ruleset
from .loader import clear_cache, derive_ruleset, list_rulesets, load_ruleset
from .paths import spec_dir

__all__ = [
    "Ruleset",
    "RulesetError",
    "clear_cache",
    "derive_ruleset",
    "list_rulesets",
    "load_ruleset",
    "spec_dir",
]
