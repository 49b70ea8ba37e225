"""Every public name of the package, and every public method and property of its classes,
has a docstring."""
import inspect

import rxc
from rxc import aio, operators


def _public(module):
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    for name in names:
        obj = getattr(module, name)
        if inspect.ismodule(obj) or not (inspect.isclass(obj) or callable(obj)):
            continue
        if getattr(obj, "__module__", "").split(".")[0] != "rxc":
            continue  # imported from elsewhere (typing, ...)
        yield name, obj


def missing():
    out = []
    for module in (rxc, aio, operators):
        for name, obj in _public(module):
            if not (obj.__doc__ or "").strip():
                out.append("%s.%s" % (module.__name__, name))
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if attr.startswith("_") or not (callable(member) or isinstance(member, (property, classmethod, staticmethod))):
                        continue
                    fn = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                    if not (getattr(fn, "__doc__", None) or "").strip():
                        out.append("%s.%s.%s" % (module.__name__, name, attr))
    return sorted(set(out))


def test_every_public_function_and_method_has_a_docstring():
    assert missing() == []
