"""Models more than one test file declares, written once (the backend
contract's own reference models, `csp.testing`)."""

from __future__ import annotations

from csp.testing import queens_model

__all__ = ["queens_model"]
