"""Builds rxc. The compiled fast path (rxc._speedups, src/rxc/_speedups.c) is optional: where
no C compiler (or no Python headers) is there, or with RXC_NO_COMPILE=1, the package installs
without it and runs through cffi's ABI mode only.

RXC_BUNDLE_LIBRARY=/path/to/librxc.so copies that library into the package (as
rxc/librxc.so.0), as `make wheel` does; the package then loads it first (RXC_LIBRARY still
overrides)."""
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py


class OptionalBuildExt(build_ext):
    """build_ext that leaves the fast path out, with a warning, where it cannot be compiled."""

    def run(self):
        try:
            super().run()
        except Exception as e:  # no compiler at all (DistutilsPlatformError, ...)
            print("rxc: building without the compiled fast path (%s)" % e)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:
            print("rxc: building without the compiled fast path (%s)" % e)


class BundlingBuildPy(build_py):
    """build_py that also copies $RXC_BUNDLE_LIBRARY into the package."""

    def run(self):
        super().run()
        lib = os.environ.get("RXC_BUNDLE_LIBRARY")
        if lib:
            shutil.copyfile(lib, os.path.join(self.build_lib, "rxc", "librxc.so.0"))


ext_modules = []
if os.environ.get("RXC_NO_COMPILE") != "1":
    ext_modules.append(Extension("rxc._speedups", ["src/rxc/_speedups.c"],
                                 depends=["src/rxc/_cdef.h"], optional=True))

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalBuildExt, "build_py": BundlingBuildPy})
