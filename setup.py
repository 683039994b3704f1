"""What is built at install time besides the pure-Python package: the
dancing-cells kernel in C, and bitmask's numba kernels compiled ahead.

Everything else is declared in pyproject.toml.

- The C extension is optional: an install without a C compiler still works,
  and `dlx` then runs the same kernel through numba (see
  csp/backends/dlx/cells.py). -O3, never -march=native: a wheel must run on
  any machine of its platform.
- `build_py` also compiles `bitmask`'s numba kernels into the package
  (csp/_prebuilt.py), so that the first run after `pip install .` loads them
  instead of compiling for up to a minute. It is skipped in an editable
  install, with `CSP_PREBUILD=0`, or where it fails: the kernels then compile
  on first use, as before.
"""

import os
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildWithKernels(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("CSP_PREBUILD") == "0":
            return
        build_lib = os.path.abspath(self.build_lib)
        with tempfile.TemporaryDirectory() as cache:
            # The user's own NUMBA_CACHE_DIR, if any, is where the build
            # leaves a copy for a checkout (csp._prebuilt.deposit).
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, CSP_COMPILE_NOTICE="0",
                       CSP_DEPOSIT_DIR=os.environ.get("NUMBA_CACHE_DIR", ""),
                       PYTHONPATH=os.pathsep.join(filter(None, [build_lib,
                                                                os.environ.get("PYTHONPATH")])))
            # From the build tree (cwd), not the sources: numba's cache
            # directory is named after the kernels' own path.
            done = subprocess.run([sys.executable, "-m", "csp._prebuilt", build_lib],
                                  env=env, cwd=build_lib, check=False)
        if done.returncode != 0:
            print("csp: bitmask's kernels were not compiled ahead; they compile on first use",
                  file=sys.stderr)


setup(
    cmdclass={"build_py": BuildWithKernels},
    ext_modules=[
        Extension(
            "csp.backends.dlx._cells",
            sources=["csp/backends/dlx/_cells.c"],
            optional=os.environ.get("CSP_REQUIRE_NATIVE") != "1",
            extra_compile_args=[] if os.name == "nt" else ["-O3", "-std=c99"],
        ),
    ],
)
