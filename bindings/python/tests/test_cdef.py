import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "gen_cdef.py")


@pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None, reason="no C compiler")
def test_committed_cdef_matches_the_header():
    r = subprocess.run([sys.executable, GEN, "--check"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    assert r.returncode == 0, r.stdout


def test_every_declared_function_resolves():
    import rxc
    import re
    with open(os.path.join(HERE, "..", "src", "rxc", "_cdef.h")) as f:
        names = set(re.findall(r"\b(rx_[a-z0-9_]+)\(", f.read()))
    missing = [n for n in sorted(names) if not hasattr(rxc.lib, n)]
    assert not missing
    assert len(names) > 140


# Functions of the header the package does not call, and why.
NOT_WRAPPED = {
    "rx_int": "Python builds plain values itself (kind and 64 bits, _from_py)",
    "rx_double": "Python builds plain values itself (kind and 64 bits, _from_py)",
    "rx_bool": "Python builds plain values itself (kind and 64 bits, _from_py)",
    "rx_ptr": "Python builds plain values itself (kind and 64 bits, _from_py)",
    "rx_none": "Python builds plain values itself (kind and 64 bits, _from_py)",
    "rx_value_int": "Python reads plain values itself (_to_py)",
    "rx_value_double": "Python reads plain values itself (_to_py)",
    "rx_value_bool": "Python reads plain values itself (_to_py)",
    "rx_value_ptr": "Python reads plain values itself (_to_py)",
}


def test_the_package_covers_the_header():
    """Every function of rxc.h is reached from the package (a new one needs a wrapper), or
    NOT_WRAPPED says why not. rx_by_ref trampolines are for FFIs without by-value structs
    in callbacks (LuaJIT); cffi passes rx_value by value."""
    import re
    src = os.path.join(HERE, "..", "src", "rxc")
    with open(os.path.join(src, "_cdef.h")) as f:
        names = set(re.findall(r"\b(rx_[a-z0-9_]+)\(", f.read()))
    code = ""
    for name in os.listdir(src):
        if name.endswith(".py"):
            with open(os.path.join(src, name)) as f:
                code += f.read()
    unreached = sorted(n for n in names if not n.startswith("rx_by_ref_") and n not in NOT_WRAPPED
                       and not re.search(r"\blib\.%s\b" % n, code))
    assert not unreached, "functions of rxc.h the package never calls: %s" % unreached
    stale = sorted(n for n in NOT_WRAPPED if n not in names or re.search(r"\blib\.%s\b" % n, code))
    assert not stale, "NOT_WRAPPED names functions that are wrapped or gone: %s" % stale
