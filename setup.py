"""The one compiled part built at install time: the dancing-cells kernel in C.

Everything else is declared in pyproject.toml. The extension is optional: an
install without a C compiler still works, and `dlx` then runs the same kernel
through numba (see csp/backends/dlx/cells.py). -O3, never -march=native: a
wheel must run on any machine of its platform.
"""

import os

from setuptools import Extension, setup

setup(ext_modules=[
    Extension(
        "csp.backends.dlx._cells",
        sources=["csp/backends/dlx/_cells.c"],
        optional=os.environ.get("CSP_REQUIRE_NATIVE") != "1",
        extra_compile_args=[] if os.name == "nt" else ["-O3", "-std=c99"],
    ),
])
