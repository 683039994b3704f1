"""The subcommands of the `csp` command line (see `csp.cli`)."""
