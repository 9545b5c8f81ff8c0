"""How a key hides its texts: each is sealed (compressed, XOR-ed with a SHA-256 keystream of the
question and field, base64); a choice's right letter is a salted hash.  Out of sight, not out of
reach (ARCHITECTURE.md, "Grading").

>>> sealed = seal("s_i = 0", "3.17c|s1")
>>> "s_i" in sealed, unseal(sealed, "3.17c|s1")
(False, 's_i = 0')
"""

from __future__ import annotations

import base64
import hashlib
import zlib


def seal(text: str, where: str) -> str:
    """Text as stored in a key: compressed, XOR-ed with a keystream of ``where`` (question and
    field) and base64-encoded, so it cannot be read in the installed package without this code.

    >>> seal("s_i = 0", "x") != seal("s_i = 0", "y")
    True
    """
    data = zlib.compress(text.encode("utf-8"), 9)
    return base64.b64encode(bytes(a ^ b for a, b in zip(data, _stream(where, len(data))))) \
        .decode("ascii")


def unseal(sealed: str, where: str) -> str:
    data = base64.b64decode(sealed)
    return zlib.decompress(bytes(a ^ b for a, b in zip(data, _stream(where, len(data))))) \
        .decode("utf-8")


def _stream(where: str, length: int) -> bytes:
    blocks, counter = [], 0
    while sum(map(len, blocks)) < length:
        blocks.append(hashlib.sha256(f"dynlab|{where}|{counter}".encode()).digest())
        counter += 1
    return b"".join(blocks)[:length]


def salted_hash(question: str, where: str, text: str) -> str:
    return hashlib.sha256(f"dynlab|{question}|{where}|{text}".encode()).hexdigest()[:24]
