"""How `import rxc` finds librxc: RXC_LIBRARY, then the bundled library (a wheel's), then
pkg-config, then the search path; and which mode (compiled or ABI) it runs in."""
import os
import shutil
import subprocess
import sys

import pytest

import rxc

HERE = os.path.dirname(os.path.abspath(__file__))
LIBDIR = os.path.dirname(os.path.realpath(rxc.library_path))


def load(env_changes, code="import rxc; print(rxc.library_path)"):
    env = {k: v for k, v in os.environ.items() if k not in ("RXC_LIBRARY", "PKG_CONFIG_PATH", "LD_LIBRARY_PATH")}
    if os.environ.get("RXC_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = os.path.join(HERE, "..", "src")
    env.update(env_changes)
    return subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, timeout=60)


def test_rxc_library_wins_and_is_the_only_candidate():
    r = load({"RXC_LIBRARY": "/nonexistent/librxc.so"})
    assert r.returncode != 0 and "/nonexistent/librxc.so" in r.stdout and "RXC_LIBRARY" in r.stdout


BUNDLED = rxc._ffi.bundled
needs_bundle = pytest.mark.skipif(BUNDLED is None, reason="no bundled library (not a wheel)")
no_bundle = pytest.mark.skipif(BUNDLED is not None, reason="the bundled library is found first")


@needs_bundle
def test_bundled_library_first():
    r = load({"LD_LIBRARY_PATH": "/nonexistent", "PKG_CONFIG_PATH": "/nonexistent"})
    assert r.returncode == 0, r.stdout
    assert r.stdout.strip() == BUNDLED


@needs_bundle
def test_rxc_library_overrides_the_bundled_one():
    r = load({"RXC_LIBRARY": os.path.realpath(rxc.library_path) + ".missing"})
    assert r.returncode != 0 and "RXC_LIBRARY" in r.stdout


def test_mode():
    want = os.environ.get("RXC_MODE", "auto")
    assert rxc.mode in ("compiled", "abi")
    if want in ("compiled", "abi"):
        assert rxc.mode == want
    lib = {"RXC_LIBRARY": os.path.realpath(rxc.library_path)}
    r = load(dict(lib, RXC_MODE="abi"), "import rxc; print(rxc.mode)")
    assert r.returncode == 0 and r.stdout.strip() == "abi", r.stdout
    r = load(dict(lib, RXC_MODE="bogus"), "import rxc")
    assert r.returncode != 0 and "RXC_MODE" in r.stdout


@no_bundle
@pytest.mark.skipif(shutil.which("pkg-config") is None, reason="no pkg-config")
def test_pkg_config_libdir(tmp_path):
    (tmp_path / "rxc.pc").write_text(
        "libdir=%s\n\nName: rxc\nDescription: test\nVersion: %s\nLibs: -L${libdir} -lrxc\n"
        % (LIBDIR, rxc.version()))
    r = load({"PKG_CONFIG_PATH": str(tmp_path)})
    assert r.returncode == 0, r.stdout
    assert r.stdout.strip() == os.path.join(LIBDIR, "librxc.so.0")


def _system_pkg_config_has_rxc():
    if shutil.which("pkg-config") is None:
        return False
    return subprocess.run(["pkg-config", "--exists", "rxc"], env={"PATH": os.environ.get("PATH", "")}).returncode == 0


@no_bundle
@pytest.mark.skipif(_system_pkg_config_has_rxc(), reason="an installed rxc.pc would be found first")
def test_standard_search_path():
    r = load({"LD_LIBRARY_PATH": LIBDIR, "PKG_CONFIG_PATH": "/nonexistent"})
    assert r.returncode == 0, r.stdout
    assert r.stdout.strip() in ("librxc.so.0", "librxc.so")
