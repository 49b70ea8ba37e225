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
