"""Loads librxc through cffi's ABI mode, and the compiled fast path (rxc._speedups) when it
was built at install time.

$RXC_MODE chooses: "abi" (cffi's ABI mode only), "compiled" (fail unless the compiled fast
path loads), or unset / "auto" (compiled when there, else ABI). `rxc.mode` says which runs.

The declarations are src/rxc/_cdef.h, generated from include/rxc.h by gen_cdef.py. The
library is looked for, in order, at:
  1. $RXC_LIBRARY (a path or a name for dlopen; if set, nothing else is tried)
  2. the library bundled in the package (a wheel's rxc/librxc.so.0)
  3. pkg-config's libdir of rxc (`pkg-config --variable=libdir rxc`)
  4. the standard search path (ctypes.util.find_library("rxc"), then librxc.so.0)
"""
import ctypes.util
import os
import subprocess

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))
#: The library bundled in the package (a wheel's), or None.
bundled = os.path.join(_HERE, "librxc.so.0") if os.path.exists(os.path.join(_HERE, "librxc.so.0")) else None

ffi = FFI()
with open(os.path.join(_HERE, "_cdef.h")) as _f:
    ffi.cdef(_f.read())


def _pkg_config_libdir():
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "rxc"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    libdir = out.stdout.strip()
    return libdir if out.returncode == 0 and libdir else None


def _candidates():
    env = os.environ.get("RXC_LIBRARY")
    if env:
        return [env]
    found = [bundled] if bundled else []
    libdir = _pkg_config_libdir()
    if libdir:
        found += [os.path.join(libdir, "librxc.so.0"), os.path.join(libdir, "librxc.so")]
    name = ctypes.util.find_library("rxc")
    if name:
        found.append(name)
    found += ["librxc.so.0", "librxc.so"]
    return found


# RTLD_NODELETE: librxc must never be unloaded. cffi dlcloses a library when its Lib object
# is collected (at interpreter exit at the latest), while libdispatch's worker threads may
# still be running the library's code: they then crashed (SIGSEGV) in about 1 run in 5.
_FLAGS = ffi.RTLD_NOW | getattr(ffi, "RTLD_NODELETE", 0x1000)
_MODE = os.environ.get("RXC_MODE", "auto") or "auto"
if _MODE not in ("auto", "abi", "compiled"):
    raise ImportError("rxc: RXC_MODE must be auto, abi or compiled, not %r" % _MODE)
if _MODE != "abi":
    # RTLD_GLOBAL: rxc._speedups resolves librxc's symbols against this very library.
    _FLAGS |= ffi.RTLD_GLOBAL


def _load():
    tried = []
    for path in _candidates():
        try:
            return ffi.dlopen(path, _FLAGS), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("rxc: cannot load librxc; set RXC_LIBRARY to the path of librxc.so, or "
                      "install librxc where pkg-config or the dynamic linker finds it. Tried: "
                      + "; ".join(tried))


lib, library_path = _load()

_version = ffi.string(lib.rx_version()).decode()
_major, _minor = (int(x) for x in _version.split(".")[:2])
if _major != lib.RX_VERSION_MAJOR or _minor < lib.RX_VERSION_MINOR:
    raise ImportError("rxc: %s is librxc %s, but this package was generated from rxc.h %d.%d"
                      % (library_path, _version, lib.RX_VERSION_MAJOR, lib.RX_VERSION_MINOR))

speedups = None
if _MODE != "abi":
    try:
        from . import _speedups as speedups
    except ImportError:
        if _MODE == "compiled":
            raise
mode = "abi" if speedups is None else "compiled"

NULL = ffi.NULL


def _addr(p):
    """The address a cdata pointer holds, as an int."""
    return int(ffi.cast("uintptr_t", p))
