"""An example csp plug-in, installed on its own: the `algx` backend
(`csp_example.backend`) and the `dominoes` puzzle kind (`csp_example.dominoes`).

csp finds both through the entry points of this package's pyproject.toml;
nothing here is imported until csp needs it.
"""
