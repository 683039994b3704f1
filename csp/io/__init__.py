"""File formats, one module each, and the reading of text input they share.

| module | what it reads (and writes) |
|---|---|
| `csp.io.text` | any text input: size bound, binary refused, UTF-8, byte-order marks |
| `csp.io.knuth` | Knuth's format for exact covers (DLX1-3, SSXCC): read and written |
| `csp.io.dimacs` | `p xc` / `p xcc` exact covers (miniexact and other tools) |
| `csp.io.matrix` | 0/1 matrices, as text or `.npy` |
| `csp.io.covers` | `read_cover(path, format="auto")`: any exact-cover file |

A format is one module named for it, with `parse(text, *, source, warn)` (and
`read(path)`), and `format(problem)` / `write(problem, path)` if it writes;
it reads through `csp.io.text` and reports bad input as `InputError` naming
the line. The puzzle kinds' own files are read by their modules
(`csp.problems`).

Nothing is imported here: `csp.exactcover` uses `csp.io.knuth`, which must
not bring in the readers that build on `ExactCover`.
"""

