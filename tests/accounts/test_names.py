"""Reserved names (issue 26: « a player may still call himself "director" »): the server's
voices and their look-alikes are refused as nicknames and display names."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.accounts import RESERVED, MemberError, check_display, reserved_name, skeleton

ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]
LOOKALIKES = {
    "a": ["а", "α", "@", "4", "ａ"],
    "e": ["е", "ε", "3", "ё", "ｅ"],
    "i": ["і", "1", "!", "|", "l", "ι", "ı"],
    "o": ["о", "ο", "0", "ｏ"],
    "s": ["ѕ", "5", "$"],
    "t": ["т", "7", "τ"],
    "r": ["г", "ʀ"],
    "d": ["ԁ", "ᴅ"],
    "h": ["һ", "н", "ʜ"],
    "c": ["с"],
    "u": ["υ"],
    "m": ["м", "rn"],
    "n": ["η", "ɴ"],
    "y": ["у"],
}
ACCENTS = ["\u0301", "\u0300", "\u0302", "\u0308", "\u0327", "\u0303"]
AROUND = st.text(alphabet=" \t.,;:-_*~'\"()[]<>«»!?#+=/\\", max_size=4)


@st.composite
def disguised(draw: st.DrawFn) -> str:
    """A reserved word in any case, with look-alikes, accents, invisible characters inside,
    punctuation or digits around."""
    word = draw(st.sampled_from(RESERVED))
    out = []
    for ch in word:
        choice = draw(st.integers(min_value=0, max_value=4))
        if choice == 1 and ch in LOOKALIKES:
            ch = draw(st.sampled_from(LOOKALIKES[ch]))
        elif choice == 2:
            ch = ch.upper()
        elif choice == 3:
            ch = unicodedata.normalize("NFC", ch + draw(st.sampled_from(ACCENTS)))
        out.append(ch)
        if draw(st.booleans()):
            out.append(draw(st.sampled_from([*ZERO_WIDTH, " ", ".", "-", "_"])))
    digits = st.text(alphabet="0123456789", max_size=3)
    return draw(AROUND) + draw(digits) + "".join(out) + draw(digits) + draw(AROUND)


@given(disguised())
def test_every_disguise_of_a_reserved_word_is_reserved(name: str) -> None:
    assert reserved_name(name), (name, skeleton(name))


@given(st.text(max_size=40))
def test_case_and_invisible_characters_never_change_the_answer(name: str) -> None:
    answer = reserved_name(name)
    assert reserved_name(name.upper()) == answer
    assert reserved_name(name.casefold()) == answer
    assert reserved_name("\u200b".join(name)) == answer
    assert reserved_name(f"  {name} ") == answer


@given(st.text(max_size=40), st.integers(min_value=0, max_value=40), st.sampled_from("fjkqwx"))
def test_a_name_with_a_letter_no_reserved_word_has_is_free(name: str, at: int, letter: str) -> None:
    # no reserved word reads with f, j, k, q, w or x (and none of the look-alikes reads as one)
    assert not reserved_name(name[:at] + letter + name[at:])


@pytest.mark.parametrize(
    "name",
    ["Ana", "Bob", "Hostess", "Le Directeur", "Brasserie", "Serveur", "Admiral", "Systemic",
     "Dominique", "日本", "Zoé", "d0rothée", "HostName"],
)  # fmt: skip
def test_ordinary_names_are_free(name: str) -> None:
    assert not reserved_name(name)


@pytest.mark.parametrize(
    "name",
    ["director", "Director", " DIRECTOR! ", "d1rector", "dіrector", "Dírector", "HOST",
     "h0st", "host2", "Brasseur", "$erver", "ADMIN", "4dm1n", "Sy5tem", "Directeur",
     "d\u200bi\u200br\u200be\u200bc\u200bt\u200bo\u200br", "ｄｉｒｅｃｔｏｒ", "d.i.r.e.c.t.o.r"],
)  # fmt: skip
def test_the_servers_voices_and_their_lookalikes_are_reserved(name: str) -> None:
    assert reserved_name(name)


def test_display_names_are_refused_with_a_stable_code() -> None:
    for display, login in (("Director", "ana"), ("", "host")):
        with pytest.raises(MemberError) as refused:
            check_display(display, login)
        assert refused.value.code == "reserved_name"
    assert check_display("Ana", "director2x") == "Ana"
