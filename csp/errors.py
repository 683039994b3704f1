"""The errors `csp` raises for bad input.

Every error a user can cause by what they declare or feed in is an
`InputError`: it says what is wrong and, where there is one, the line and the
token at fault, so that the command line can print it without a traceback.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: a malformed file, an unknown item, an impossible declaration.

    >>> str(InputError("unknown item 'z'", line=3, token="z", source="queens.xc"))
    "queens.xc: line 3: unknown item 'z'"
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        token: object = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.token = token
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source:
            where.append(str(self.source))
        if self.line is not None:
            where.append(f"line {self.line}")
        prefix = ": ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message

    def located(self, *, line: int | None = None, source: str | None = None) -> InputError:
        """The same error with a line and/or a source file filled in."""
        return InputError(
            self.message,
            line=self.line if line is None else line,
            token=self.token,
            source=self.source if source is None else source,
        )


class BackendUnavailable(RuntimeError):
    """A backend that is not installed or cannot take this problem."""
