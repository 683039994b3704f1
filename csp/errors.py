"""The errors `csp` raises for bad input.

Every error a user can cause by what they declare or feed in is an
`InputError`: it says what is wrong and, where there is one, the line and the
token at fault, so that the command line can print it without a traceback.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: a malformed file, an unknown item, an impossible declaration.

    Args:
        message: what is wrong, naming the item, value or line at fault.
        line: the line of the input file, when known.
        token: the value at fault, for a program to read.
        source: the input file's name, when known.

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
        """The same error with a line and/or a source file filled in.

        Args:
            line: the line, if this error has none yet given.
            source: the file's name, likewise.

        Returns:
            A new `InputError`; this one is unchanged.

        >>> str(InputError("bad value").located(line=2, source="a.xc"))
        'a.xc: line 2: bad value'
        """
        return InputError(
            self.message,
            line=self.line if line is None else line,
            token=self.token,
            source=self.source if source is None else source,
        )


class InputWarning(UserWarning):
    """Input that is read, but not all of it: e.g. an option of Knuth's format
    without a primary item, which Knuth's programs drop with a warning too."""


class Refused(InputError):
    """A backend does not take this problem, by what it declares (its
    capabilities or its `refuses`): raised before solving. The problem is
    fine; another backend takes it (the message names them)."""


class BackendUnavailable(RuntimeError):
    """A backend that is not installed or cannot take this problem."""


class SolverFailed(BackendUnavailable):
    """An outside solver failed while it ran: it crashed, ran out of memory,
    or printed what csp cannot read. The message names the backend and
    keeps the solver's last lines; whatever it had counted is dropped, never
    given as a count."""


class BadMember(InputError, BackendUnavailable):
    """A portfolio named with a member that is unknown, not installed, or
    itself a portfolio: bad input (the message lists what is available), and
    a backend that cannot run."""


class BadOption(InputError, BackendUnavailable):
    """A backend named with options it does not have, or a value an option
    does not take (`bitmask:learn=maybe`): bad input, and a backend that
    cannot run. The message lists the options."""


def refuse_string(value: object, what: str) -> None:
    """Refuse a str (or bytes) where a list is expected: iterating it would
    silently declare one thing per character (`AllDifferent("xy")` is x and y,
    `add_option("ab")` covers items a and b), which is almost never meant.

    >>> refuse_string("ab", "option 0")
    Traceback (most recent call last):
        ...
    csp.errors.InputError: option 0: got the string 'ab'; pass a list, e.g. ['ab'] or ['a', 'b']
    """
    if isinstance(value, (str, bytes)):
        example = f"[{value!r}]" + (f" or {list(value)!r}" if isinstance(value, str) else "")
        raise InputError(f"{what}: got the string {value!r}; pass a list, e.g. {example}",
                         token=value)
