# SPDX-License-Identifier: MIT
"""maelys_datalog: the API as a Python user sees it."""

import gc
import os
import threading

import pytest

import maelys_datalog as md

DOMAIN = md.Domain("pytest_api", [
    ("command", 1, md.Role.EDB),
    ("arg", 1, md.Role.EDB),
    ("num", 1, md.Role.EDB),
    ("trusted", 1, md.Role.POLICY_FACT),
    ("allow", 1, md.Role.IDB | md.Role.QUERY),
    ("big", 1, md.Role.IDB | md.Role.QUERY),
    ("pair", 2, md.Role.IDB | md.Role.QUERY),
]).register()

POLICY = """
trusted("ls").
allow(C) :- command(C), trusted(C).
big(N) :- num(N), N > 10.
pair(C, A) :- command(C), arg(A).
"""


def load():
    return md.Policy.load_inline("api.dl", POLICY, domain=DOMAIN.name)


def test_solve_query_rows():
    with load() as policy, md.Session(policy) as session, md.InputEdb() as edb:
        edb.add_fact("command", "ls")
        edb.add_facts([("arg", "-l"), ("arg", b"\xff"), ("num", 11), ("num", 3)])
        assert len(edb) == 5
        with session.solve(edb) as result:
            assert result.query("allow", "ls") is True
            assert result.query("allow", "rm") is False
            assert result.rows("big", 1) == [(11,)]
            assert result.rows("pair", 2) == [("ls", "-l"), ("ls", "\udcff")]
            # a symbol read back is found again
            assert result.query("pair", "ls", "\udcff")
            assert result.query("pair", "ls", b"\xff")


def test_nul_in_terms_is_data():
    with load() as policy, md.Session(policy) as s, md.InputEdb() as edb:
        edb.add_fact("command", "l\0s")
        edb.add_fact("arg", "x")
        r = s.solve(edb)
        assert r.rows("pair", 2) == [("l\0s", "x")]
        assert not r.query("allow", "ls")


def test_load_error_carries_position():
    with pytest.raises(md.ParseError) as ei:
        md.Policy.load_inline("bad.dl", "allow(C) :- command(C)\nallow(", domain=DOMAIN.name)
    e = ei.value
    assert isinstance(e, md.Error)
    assert (e.status, e.source, e.line) == ("parse", "bad.dl", 2)
    assert e.column > 0 and e.message.startswith("bad.dl:2:")
    with pytest.raises(md.UndeclaredError) as ei:
        md.Policy.load_inline("u.dl", "allow(C) :- nothing(C).", domain=DOMAIN.name)
    assert ei.value.line == 1
    with pytest.raises(md.VocabularyError):
        md.Domain("pytest_vocab", [("allow", 1, md.Role.IDB | md.Role.QUERY)],
                  atoms=["ls"]).register()
        md.Policy.load_inline("v.dl", 'allow("rm").', domain="pytest_vocab")
    with pytest.raises(md.UnknownDomainError):
        md.Policy.load_inline("x.dl", "", domain="no such domain")


def test_load_file(tmp_path):
    p = tmp_path / "p.dl"
    p.write_text(POLICY)
    with md.Policy.load_file(str(p), domain=DOMAIN.name) as policy:
        assert policy.reads("command", 1)
    with pytest.raises(md.IoError) as ei:
        md.Policy.load_file(str(tmp_path / "missing.dl"), domain=DOMAIN.name)
    assert isinstance(ei.value, OSError)
    with pytest.raises(md.IoError):
        md.Policy.load_file(str(tmp_path), domain=DOMAIN.name)  # a directory


def test_standalone_program():
    with md.Policy.load_inline("s.dl", ".decl e(x:number)\n.input e\n.decl p(x:number)\np(X) :- e(X), X < 5.") as pol:
        with md.Session(pol) as s, md.InputEdb() as edb:
            edb.add_facts([("e", 1), ("e", 9)])
            assert s.solve(edb).rows("p", 1) == [(1,)]


def test_solve_errors():
    with load() as policy, md.Session(policy) as s, md.InputEdb() as edb:
        edb.add_fact("allow", "x")  # not an EDB predicate: checked at solve
        with pytest.raises(md.RoleError):
            s.solve(edb)
        edb.clear()
        edb.add_fact("command", "a", "b")
        with pytest.raises(md.ArityError):
            s.solve(edb)
        edb.clear()
        edb.add_fact("nope", "a")
        with pytest.raises(md.UndeclaredError):
            s.solve(edb)
        edb.clear()
        edb.add_fact("num", 1)
        edb.add_fact("command", 5)
        r = s.solve(edb)
        with pytest.raises(md.RoleError):
            r.query("command", "x")
        with pytest.raises(md.ArityError):
            r.rows("allow", 2)


def test_budgets():
    with load() as policy:
        with md.Session(policy, facts=2) as s, md.InputEdb() as edb:
            assert s.budget("facts") == 2
            edb.add_facts([("arg", str(i)) for i in range(3)])
            with pytest.raises(md.BudgetFactsError):
                s.solve(edb)
        with md.Session(policy, tuples=3) as s, md.InputEdb() as edb:
            edb.add_fact("command", "c")
            edb.add_facts([("arg", str(i)) for i in range(10)])
            with pytest.raises(md.BudgetTuplesError) as ei:
                s.solve(edb)
            assert ei.value.status == "budget_tuples"
        with pytest.raises(md.InvalidArgumentError):
            md.Session(policy, steps=0)
        with pytest.raises(md.LimitError):
            md.Session(policy, memory=2**64 - 1)
        with pytest.raises(OverflowError):
            md.Session(policy, tuples=-1)
        with pytest.raises(TypeError):
            md.Session(policy, no_such_budget=1)


def test_bad_input_never_crashes():
    with load() as policy, md.Session(policy) as s, md.InputEdb() as edb:
        with pytest.raises(OverflowError):
            edb.add_fact("num", 2**63)
        with pytest.raises(OverflowError):
            edb.add_fact("num", -2**63 - 1)
        edb.add_fact("num", -2**63)
        edb.add_fact("num", 2**63 - 1)
        for bad in (1.5, None, [], True, object()):
            with pytest.raises(TypeError):
                edb.add_fact("arg", bad)
        with pytest.raises(TypeError):
            edb.add_fact(5, "x")
        with pytest.raises(TypeError):
            edb.add_fact()
        with pytest.raises(md.InvalidArgumentError):
            edb.add_fact("com\0mand", "x")
        with pytest.raises(md.InvalidArgumentError):
            edb.add_fact("Bad-Name", "x")
        with pytest.raises(md.LimitError):
            edb.add_fact("arg", *["x"] * (md.MAX_ARITY + 1))
        with pytest.raises(md.LimitError):
            edb.add_fact("arg", "x" * 70000)
        with pytest.raises(TypeError):
            edb.add_facts(5)
        with pytest.raises(TypeError):
            edb.add_facts([("arg", "ok"), 7])
        with pytest.raises(TypeError):
            edb.add_facts([()])
        assert len(edb) == 2  # failed batches added nothing
        with pytest.raises(TypeError):
            s.solve("not an edb")
        r = s.solve(edb)
        with pytest.raises(md.InvalidArgumentError):
            r.rows("big", -1)
        with pytest.raises(OverflowError):
            r.rows("big", 2**70)
        with pytest.raises(md.InvalidArgumentError):
            md.Policy.load_inline("a\0b", POLICY, domain=DOMAIN.name)
        with pytest.raises(ValueError):  # os.fsencode's own check
            md.Policy.load_file("/etc/\0passwd", domain=DOMAIN.name)
        with pytest.raises(TypeError):
            md.Policy.load_inline("x", 5)
        with pytest.raises(TypeError):
            md.Session("policy")
    with pytest.raises(md.InvalidDomainError):
        md.Domain("pytest_bad", [("x", 99, md.Role.EDB)]).register()
    with pytest.raises(md.InvalidDomainError):
        md.Domain("pytest_bad2", [("x", 1, 0xFF)]).register()
    with pytest.raises(md.InvalidArgumentError):
        md.Domain("pytest_bad3", [("x\0y", 1, md.Role.EDB)]).register()
    with pytest.raises(md.DomainConflictError):
        md.Domain(DOMAIN.name, [("command", 2, md.Role.EDB)]).register()
    DOMAIN.register()  # the same table again: a no-op


def test_closed_objects_and_any_free_order():
    policy = load()
    session = md.Session(policy)
    policy.close()  # the session keeps its own reference
    policy.close()  # twice is fine
    with pytest.raises(md.InvalidArgumentError):
        md.Session(policy)
    with pytest.raises(md.InvalidArgumentError):
        policy.reads("command", 1)
    edb = md.InputEdb()
    edb.add_fact("command", "ls")
    result = session.solve(edb)
    session.close()  # the result outlives its session
    edb.close()
    assert result.query("allow", "ls")
    assert result.rows("allow", 1) == [("ls",)]
    with pytest.raises(md.InvalidArgumentError, match="closed"):
        session.solve(md.InputEdb())
    with pytest.raises(md.InvalidArgumentError, match="closed"):
        edb.add_fact("command", "x")
    with pytest.raises(md.InvalidArgumentError):
        md.Session(load()).solve(edb)
    result.close()
    with pytest.raises(md.InvalidArgumentError, match="closed"):
        result.query("allow", "ls")
    assert len(edb) == 0
    # and collection in every order
    for order in range(6):
        objs = [load()]
        objs.append(md.Session(objs[0]))
        e = md.InputEdb()
        e.add_fact("command", "ls")
        objs.append(objs[1].solve(e))
        for i in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)][order]:
            objs[i] = None
            gc.collect()


def test_threads():
    """Sessions of one policy in parallel; one session shared by threads."""
    errors = []
    with load() as policy:
        shared = md.Session(policy)

        def work(session, n):
            try:
                for i in range(n):
                    with md.InputEdb() as edb:
                        edb.add_facts([("command", "ls"), ("num", i)])
                        with session.solve(edb) as r:
                            assert r.query("allow", "ls")
                            assert r.query("big", i) == (i > 10)
            except Exception as e:  # reported by the main thread
                errors.append(e)

        threads = [threading.Thread(target=work, args=(md.Session(policy), 300)) for _ in range(4)]
        threads += [threading.Thread(target=work, args=(shared, 300)) for _ in range(4)]
        # one EDB solved by many threads at once, and closed meanwhile
        edb = md.InputEdb()
        edb.add_fact("command", "ls")

        def same_edb():
            try:
                for _ in range(300):
                    try:
                        with md.Session(policy) as s:
                            s.solve(edb).query("allow", "ls")
                    except md.InvalidArgumentError:
                        pass  # closed by the main thread
            except Exception as e:
                errors.append(e)

        threads += [threading.Thread(target=same_edb) for _ in range(3)]
        for t in threads:
            t.start()
        edb.close()
        for t in threads:
            t.join()
        shared.close()
    assert errors == []


def test_exceptions_hierarchy():
    assert issubclass(md.BudgetStepsError, md.Error)
    assert md.status_class("parse") is md.ParseError
    assert md.version().count(".") == 2
    assert md.ParseError.__module__ == "maelys_datalog"
    for name in md.__all__:
        assert hasattr(md, name)


def test_stub_names_every_public_name():
    stub = os.path.join(os.path.dirname(md.__file__), "__init__.pyi")
    with open(stub) as f:
        text = f.read()
    for name in md.__all__:
        assert ("class %s" % name in text or "def %s" % name in text
                or "%s:" % name in text), name
