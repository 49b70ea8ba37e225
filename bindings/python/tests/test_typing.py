"""The type declarations (__init__.pyi) cover the package's public names, and the typed
sample (typed_check.py, which mypy --strict checks in make python-test) runs."""
import ast
import os

import rxc

STUB = os.path.join(os.path.dirname(os.path.abspath(rxc.__file__)), "__init__.pyi")


def test_the_stub_declares_every_public_name():
    tree = ast.parse(open(STUB).read())
    declared = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            declared.add(node.target.id)
        elif isinstance(node, ast.Assign):
            declared.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            declared.update(a.asname or a.name for a in node.names)
    public = {n for n in rxc.__all__ if not n.startswith("_")}
    modules = {n for n in public if type(getattr(rxc, n)).__name__ == "module"}
    assert sorted(public - modules - declared) == []


def test_the_typed_sample_runs():
    import typed_check
    typed_check.checked()


def test_generic_names_work_in_annotations_at_run_time():
    # annotations evaluated at run time (no `from __future__ import annotations`), and the
    # names the stubs import from rxc (pdoc runs the stubs as modules)
    def f(o: rxc.Observable[int], s: rxc.PublishSubject[str], e: rxc.Emitter[int],
          g: rxc.GroupedObservable[int], t: rxc.Seconds, p: rxc.Policy) -> rxc.Observable[str]:
        return o.map(str)
    assert f.__annotations__["o"] == rxc.Observable[int]
    assert rxc.Policy is str
    assert f(rxc.of(1, 2), None, None, None, 1.0, "fail").blocking_to_list() == ["1", "2"]
