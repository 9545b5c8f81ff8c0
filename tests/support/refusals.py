"""A table of refused calls: each row a call, the error it must raise, and a regular expression
its message must match (the argument, element or file it names)."""

import pytest


def refusals(*rows):
    """Parametrise a test over rows ``(call, error, words)``; the test's body is
    :func:`assert_refused`."""
    return pytest.mark.parametrize("call, error, words", rows,
                                   ids=[f"{k}-{words[:40]}" for k, (_, _, words) in
                                        enumerate(rows)])


def assert_refused(call, error, words):
    with pytest.raises(error, match=words):
        call()
