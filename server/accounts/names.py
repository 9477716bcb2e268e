"""Reserved names: nobody calls himself the director (pure: no I/O).

At a table the director's and the host's words are chat lines of the server's own (``seat``
None, ``player`` "director" or "host": server.table.core). A player, a spectator or a member
named "Director", "d1recteur" or "dіrector" (a Cyrillic і) would put words in their mouth, so
these names are refused as ``hello`` nicknames and as members' display names (code
``reserved_name``). The browser draws the server's lines apart all the same (client_web/js/
log.js): this check keeps the names honest, the page keeps the log honest.

A name is reserved when one of its readings is one of :data:`RESERVED` (:func:`skeleton`).
A reading keeps only letters, once folded: compatibility forms (NFKC: full-width letters,
ligatures), case, accents (combining marks), look-alike letters of other scripts (Cyrillic,
Greek: a table of the usual ones), digits and signs written for letters (``0`` o, ``1`` i,
``3`` e, ``4`` a, ``5`` s, ``7`` t, ``@`` a, ``$`` s, ``!`` i, ``|`` i), ``l`` read as ``i``
and ``rn`` as ``m``, repeated letters once; spaces, punctuation and invisible characters
(zero-width joiners, format characters) are dropped. Digits and signs are read as letters,
dropped around the name (``director2``, ``!host!``), and dropped everywhere (``di2rector``).
"""

from __future__ import annotations

import unicodedata

__all__ = ["RESERVED", "reserved_name", "skeleton"]

RESERVED = ("director", "directeur", "host", "brasseur", "server", "admin", "system")
"""The words of the server's own voices, and of those a player would imitate to pass for it."""

_SIGNS = {"@": "a", "$": "s", "!": "i", "|": "i", "€": "e", "£": "l"}
"""Signs written for letters (read before punctuation is dropped)."""
_DIGITS = {"0": "o", "1": "i", "2": "z", "3": "e", "4": "a", "5": "s", "6": "g", "7": "t",
           "8": "b", "9": "g"}  # fmt: skip
_LOOKALIKES = {
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i",
    "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "ѕ": "s", "т": "t", "у": "y",
    "х": "x", "ү": "y", "ӏ": "i", "ԛ": "q", "ԝ": "w", "г": "r", "п": "n", "и": "u", "ц": "u",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "σ": "o", "ς": "s", "μ": "u", "ω": "w", "δ": "d",
    # Latin letters that read as others
    "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t", "ß": "s",
    "ſ": "s", "ƚ": "l", "ɩ": "i", "ɑ": "a", "ɡ": "g", "ʀ": "r", "ʜ": "h", "ᴅ": "d",
    "ᴇ": "e", "ᴏ": "o", "ᴛ": "t", "ꜱ": "s", "ɪ": "i", "ɴ": "n",
}  # fmt: skip


def _tokens(text: str) -> list[tuple[str, bool]]:
    """The folded letters of ``text``, each with whether it was written as a digit or a sign
    (``0`` for o, ``@`` for a): those are read as letters inside a name, dropped around it."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    out: list[tuple[str, bool]] = []
    for ch in folded:
        ch = _LOOKALIKES.get(ch, ch)
        if ch in _SIGNS or ch in _DIGITS:
            out.append((_SIGNS.get(ch) or _DIGITS[ch], True))
        elif (ch.isascii() and ch.isalpha()) or unicodedata.category(ch).startswith("L"):
            out.append((ch, False))  # another script's letter is kept: "日本" reserves nothing
    return out


def _readings(text: str) -> set[str]:
    """``text`` with its digits and signs read as letters, with any number of those around
    it dropped (``director2``, ``!host!``, ``hos70``: the ``7`` a letter, the ``0`` added);
    and the same without any of them."""
    tokens = _tokens(text)
    lead = next((k for k, (_, written) in enumerate(tokens) if not written), len(tokens))
    trail = next((k for k, (_, written) in enumerate(reversed(tokens)) if not written), len(tokens))
    readings = {"".join(ch for ch, written in tokens if not written)}
    for a in range(min(lead, 8) + 1):
        for b in range(min(trail, 8) + 1):
            if a + b <= len(tokens):
                readings.add("".join(ch for ch, _ in tokens[a : len(tokens) - b]))
    return readings


def _collapse(text: str) -> str:
    text = text.replace("l", "i").replace("rn", "m")
    return "".join(ch for k, ch in enumerate(text) if k == 0 or text[k - 1] != ch)


def skeleton(text: str) -> str:
    """What ``text`` reads as (digits and signs read as letters): see the module's docstring."""
    return _collapse("".join(ch for ch, _ in _tokens(text)))


_RESERVED = frozenset(_collapse(word) for word in RESERVED)


def reserved_name(text: str) -> bool:
    """Whether ``text`` would pass for one of the server's voices (:data:`RESERVED`, in any
    case, accents, look-alike letters, digits for letters, with spaces, punctuation or
    invisible characters around or inside, or with digits added)."""
    if not isinstance(text, str):
        return False
    return any(_collapse(reading) in _RESERVED for reading in _readings(text))
