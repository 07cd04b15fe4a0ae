"""The words that say what a question's numbers count: shared by ``bind`` and ``ones``.

What it does: holds the small vocabularies of binding (filler between a number and its noun,
list separators, endings) as folded words and patterns, each with why it is there. What it
does not do: bind anything (``bind``, ``ones``).
"""

from __future__ import annotations

import re

from .text import fold

# Words between a number and what it counts that do not change what it counts. "kez"
# ("2 kez belirteci 0'a koydum") counts what follows it unless the formula counts occasions
# (then "kez" is that quantity's name and is read first). "2 gelen zar": a die showing 2;
# "d10 zarı 0 gösteriyor", "d10 zarında 0 yazıyor", "d10'un üstünde 0 yazıyor": what a die
# shows ("3 zarım var" counts dice: no filler).
FILLER = frozenset(fold(w) for w in """tane adet daha de da tl şu an anda su şuan değeri degeri
değerinde toplam total of my i have has var olan olarak sadece only just kadar the a is are
was were shows kapalı açık harcanmamış kullanılmamış uygun unused face down up gelen gelmiş
kez kere defa dahil normal zarı zarında zarımda zarındaki zarımdaki üstünde üstte üzerinde
gösteren""".split())
FILLER_WORD = "dahil"
# "benim", "bende", "bendeydi": the thing named is the speaker's (``ones``, ``occasions``).
MINE = frozenset(("benim", "bende", "bendeydi", "benimdi", "bendedir", "mine"))
TIMES = frozenset(("kez", "kere", "defa", "times"))  # "3 kere": how many times
SEPARATORS = frozenset([",", ";", "+", "&", "ve", "and", "ile"])
ALSO = frozenset(("de", "da"))  # "d10 ile d12 de 5", "çaresiz de dahil", "ikisi de"
ELLIPSIS = frozenset(["tane", "adet"])
ARTICLES = frozenset(("bir", "bi"))  # the indefinite article, as written and as said
# "bir" is left out of the numbers (``numbers``: far more often the article). Before a
# quantity's name that no number counts, it is the count: "bir bitiş koşulu sağlandı",
# "bir kere atık temizleme yaparsam" (1, where the rule's default would be 0). "biri" is "one
# of them": "beş bitiş koşulundan biri".
ONE = frozenset(["bir", "bi", "tek", "biri", "birisi", "birini", "bisi", "birinde"])
# An ablative ending: "beş bitiş koşulundan ikisi" — the number after it counts the name
# ("ikisi", two of them); the number before it is the whole the part is taken from.
ABLATIVE = re.compile(r"(?:d|t)(?:a|e)n$")
PLURAL = re.compile(r"l[ae]r")
# The first person's "to be" on a rank word, folded: "birinciyim", "ikinciydim".
SELF = re.compile(r"(?:inci|nci|uncu|ncu)(?:y?(?:im|um|iz|uz)|yd(?:im|um|ik|uk))$")
GIVES = ("=", ":")  # "d12=5", "talep: 13": the value of the name just before
MORE = "daha"  # "6 jetonum vardı, 3 tane daha aldım": 3 more of what was last named
SENTENCE_ENDS = frozenset(".!?")  # tokens of their own
CLAUSE_ENDS = frozenset(",;")
WINDOW = 2  # filler words allowed between a number and its noun
OCCASION_GAP = 3  # words between a number of occasions and what is done on each
# The locative ending ("Recharge'da", "gününde", "ikisinde"), folded; a word's own letters
# must come before it ("da", "de" alone are the conjunction).
LOCATIVE = re.compile(r"\w{2,}(?:n)?[dt][ae]$")
LOCATIVE_NUMBER = re.compile(r"[^\W\d]{3,}nd[ae]$")  # "ikisinde", "birinde"
LOCATIVE_SUFFIX = re.compile(r"n?[dt][ae]\b")  # after an apostrophe: "'da", "'nde"
# "5 €$'lik kartı": a number with the "-lik" ending says what one thing measures (its cost),
# not how many of it there are; of a quantity of values it is the value ("4'lük kademe").
# ("5'erlik", "6'şarlık": so many each)
MEASURE = re.compile(r"\s*[€$£%]*\s*['’`]?(?:ş?[ae]r)?l[ıiuü]k", re.IGNORECASE)
# "her Sıcaklık Bandı başına 1 jeton", "her değer çifti için 1 kart": a rate word, with "her"
# a few words before it
RATE_WORDS = frozenset(("basina", "icin", "per"))
EVERY = frozenset(("her", "each", "every"))
