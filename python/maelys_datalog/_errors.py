# SPDX-License-Identifier: MIT
"""The exception hierarchy: one class per status of libmaelys-datalog.

The extension raises the class of the status a call returned, with the
diagnostic's source, line, column and message as attributes.  This module
owns the mapping; the extension reads ``BY_STATUS`` at import.
"""

from __future__ import annotations


class Error(Exception):
    """A call of libmaelys-datalog failed.

    ``status`` is the status's name ("parse", "budget_tuples", ...);
    ``source``, ``line`` and ``column`` locate a load error (empty and 0
    when no position applies); ``message`` is the engine's diagnostic.
    Any failure of a solve means nothing was decided: deny.
    """

    status = "unknown"

    def __init__(self, message: str = "", *, source: str = "",
                 line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column


def _make(name: str, doc: str, *bases: type) -> type:
    cls = type(name, (Error,) + bases, {"__doc__": doc, "__module__": "maelys_datalog"})
    return cls


# status name -> (class name, extra Python base, docstring); the order is the
# engine's status numbers (datalog.h), which are appended, never renumbered.
_STATUSES = [
    ("invalid_argument", "InvalidArgumentError", (ValueError,),
     "A malformed argument, a closed object, or a call the API does not allow."),
    ("no_memory", "NoMemoryError", (MemoryError,), "An allocation failed; nothing was half-done."),
    ("limit", "LimitError", (), "An input is larger than a hard limit."),
    ("io", "IOError_", (OSError,), "The policy file could not be opened or read."),
    ("parse", "ParseError", (), "Syntax error in the policy text."),
    ("undeclared", "UndeclaredError", (), "A predicate is used that nothing declares."),
    ("arity", "ArityError", (), "A predicate is used with the wrong number of arguments."),
    ("role", "RoleError", (), "A predicate is used against its role."),
    ("unsafe", "UnsafeError", (), "A variable is not bound by a positive body literal."),
    ("negation_cycle", "NegationCycleError", (), "Recursion through negation."),
    ("vocabulary", "VocabularyError", (), "A constant of the policy is not in the domain's vocabulary."),
    ("regex", "RegexError", (), "A regular expression does not compile."),
    ("redeclared", "RedeclaredError", (), "A declaration conflicts with another one."),
    ("unknown_domain", "UnknownDomainError", (), "No domain of that name is registered."),
    ("domain_conflict", "DomainConflictError", (), "A domain name is registered with a different table."),
    ("invalid_domain", "InvalidDomainError", (), "A domain table is malformed."),
    ("budget_facts", "BudgetFactsError", (), "A solve was given more input facts than its budget."),
    ("budget_tuples", "BudgetTuplesError", (), "A solve derived more tuples than its budget."),
    ("budget_iterations", "BudgetIterationsError", (), "A solve needed more iterations than its budget."),
    ("budget_memory", "BudgetMemoryError", (), "A solve needed more memory than its budget."),
    ("regex_limit", "RegexLimitError", (), "A re_match hit its match, depth or heap limit."),
    ("type", "TypeError_", (), "A built-in was applied to a value of the wrong kind."),
    ("truncated", "TruncatedError", (), "An enumeration had fewer rows than the relation."),
    ("budget_steps", "BudgetStepsError", (), "A solve did more join work than its budget."),
    ("arithmetic", "ArithmeticError_", (), "An arithmetic term had no defined value (division by zero)."),
]

BY_STATUS: dict[str, type] = {}
for _status, _name, _bases, _doc in _STATUSES:
    # IOError and TypeError are builtins: the classes are IoError and
    # EngineTypeError so that neither shadows them.
    _name = {"IOError_": "IoError", "TypeError_": "EngineTypeError",
             "ArithmeticError_": "EngineArithmeticError"}.get(_name, _name)
    _cls = _make(_name, _doc, *_bases)
    _cls.status = _status
    BY_STATUS[_status] = _cls
    globals()[_name] = _cls
del _status, _name, _bases, _doc, _cls
