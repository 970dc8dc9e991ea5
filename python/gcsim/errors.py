"""The exceptions gcsim raises, each carrying the message ``gcsim run`` prints.

Every one is a :class:`gcsim.Error`::

    try:
        gcsim.run("rack.json", "jobs.json")
    except gcsim.InputError as e:
        print(e.file, e.where, e.field, e.problem)
"""

from __future__ import annotations


class Error(Exception):
    """Anything gcsim refuses or fails at (``gcsim run``'s non-zero exit statuses)."""


class UsageError(Error):
    """An option that is unknown or has a bad value (``gcsim run``'s status 2)."""


class InputError(Error):
    """A bad input file or document (status 1): the message names the file, where
    in it (a line, or the JSON path of the object) and the field.

    Attributes: ``file``, ``where``, ``field``, ``problem`` (each a str, empty
    when the error has no such part).
    """

    def __init__(self, message: str, file: str = "", where: str = "", field: str = "", problem: str = "") -> None:
        super().__init__(message)
        self.file = file
        self.where = where
        self.field = field
        self.problem = problem


class PolicyError(Error):
    """An unknown policy or placement (status 2), a policy's plan that breaks the
    rules or a policy that throws (status 3).

    A policy written in Python that raised: the message is "policy 'CLASS'
    failed at t=TIME s: " and the exception, then its traceback, which the
    attribute ``traceback`` holds alone (empty for other errors).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        at = message.find("Traceback (most recent call last):")
        self.traceback = message[at:] if at >= 0 else ""


class InvariantBroken(Error):
    """Under ``check=True``, an invariant every schedule keeps was found broken
    (status 16): a bug in gcsim or in the policy."""


__all__ = ["Error", "UsageError", "InputError", "PolicyError", "InvariantBroken"]
