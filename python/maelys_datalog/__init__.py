# SPDX-License-Identifier: MIT
"""maelys_datalog: the Python binding of libmaelys-datalog.

    import maelys_datalog as md

    md.Domain("level1", [("command", 1, md.Role.EDB),
                         ("allow", 1, md.Role.IDB | md.Role.QUERY)]).register()
    with md.Policy.load_file("policy.dl", domain="level1") as policy, \\
         md.Session(policy, tuples=10_000) as session, \\
         md.InputEdb() as edb:
        edb.add_fact("command", "ls")
        with session.solve(edb) as result:
            allowed = result.query("allow", "ls")

Every failing call raises a subclass of ``Error`` named for the engine's
status (ParseError, BudgetTuplesError, ...), with ``source``, ``line``,
``column`` and ``message``.  A failed solve decided nothing: deny.
"""

from __future__ import annotations

import enum
from typing import Iterable, NamedTuple, Optional, Sequence

from ._errors import *  # noqa: F401,F403 (the hierarchy is part of the API)
from ._errors import BY_STATUS, Error
from ._datalog import InputEdb, Policy, Result, Session, register_domain, version

MAX_ARITY = 32


class Role(enum.IntFlag):
    """Roles of a domain's predicates (maelys-policy(5), "Declarations")."""

    EDB = 1 << 0          #: supplied by the host with each solve
    POLICY_FACT = 1 << 1  #: ground facts written in the policy
    IDB = 1 << 2          #: derived by the policy's rules
    QUERY = 1 << 3        #: readable from a result (with IDB only)


class Predicate(NamedTuple):
    """One row of a domain's predicate table."""

    name: str
    arity: int
    role: Role


class Domain:
    """A host's vocabulary: its predicates and, optionally, the complete list
    of string constants a policy of it may write (``atoms``; None allows any).

    ``register()`` enters it in the process-wide registry; registering the
    same table again is a no-op, a different table under the same name
    raises DomainConflictError.
    """

    def __init__(self, name: str,
                 predicates: Iterable[Sequence[object]],
                 atoms: Optional[Iterable[str]] = None) -> None:
        self.name = name
        self.predicates = [Predicate(*p) for p in predicates]
        self.atoms = None if atoms is None else list(atoms)

    def register(self) -> "Domain":
        register_domain(self.name,
                        [(p.name, p.arity, int(p.role)) for p in self.predicates],
                        self.atoms)
        return self


def status_class(status: str) -> type:
    """The exception class of a status name ("parse", "budget_tuples")."""
    return BY_STATUS[status]


__all__ = ["Domain", "Error", "InputEdb", "MAX_ARITY", "Policy", "Predicate",
           "Result", "Role", "Session", "status_class", "version"] + \
    [c.__name__ for c in BY_STATUS.values()]
