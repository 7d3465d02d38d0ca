"""Meld types shared by scoring, the game state and records."""

MELD_NONE = 0
MELD_CHI = 1
MELD_PON = 2
MELD_DAIMINKAN = 3
MELD_KAKAN = 4
MELD_ANKAN = 5

MELD_NAMES = {
    MELD_CHI: "chi",
    MELD_PON: "pon",
    MELD_DAIMINKAN: "daiminkan",
    MELD_KAKAN: "kakan",
    MELD_ANKAN: "ankan",
}
"""Meld type → the name used in records and the hand-score format."""
MELD_TYPES = {name: t for t, name in MELD_NAMES.items()}

MAX_MELDS = 4
"""A hand has four sets; each call makes one."""


def is_kan(meld_type: int) -> bool:
    """True for daiminkan, kakan and ankan."""
    return meld_type in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN)


def is_open(meld_type: int) -> bool:
    """True for every meld but ankan (an ankan keeps the hand closed)."""
    return meld_type in (MELD_CHI, MELD_PON, MELD_DAIMINKAN, MELD_KAKAN)
