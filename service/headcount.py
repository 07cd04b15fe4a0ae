"""How many play: "rebirth kaç kişiyle oynanır", "5 kişi olur mu", answered from the game's counts.

What it does: spots a question that asks nothing but how many players a named game is for,
and answers it with the game's player range (its facts table, else "2-4 oyuncu" in its text),
quoting and citing the sentence that states it; a count the question states is said to be in
the range or not ("Hayır — … 5 oyuncu için kural yok"); a text that gives no count but whose
rules speak of both players is said to be written for two. What it does not do: read the counts
(``players``), or answer a question that states a count for something else ("4 kişiyiz, kaç
ağaç koyuyoruz": that is the setup's, see ``setup``). A game whose text says nothing of how
many play is left to the ordinary pipeline.
"""

from __future__ import annotations

import re

from .answer import Answer, AnswerSpan
from .chunks import Chunk
from .corpus import Corpus
from .facts import Fact
from .players import player_range_at, stated_players, two_player_sentence
from .retrieve import Hit, Retrieval
from .text import fold, sentence_spans

# What asks how many play, folded: "kaç kişiyle", "kaç oyunculu", "kaç kişiye kadar".
_ASKS = re.compile(r"\bkac\s+(?:kisi|oyuncu)\w*|\bhow many players\b")
# A count stated and asked about: "5 kişi olur mu", "iki kişi oynanır mı".
_ALLOWED = re.compile(r"\b(?:(?:\d+|iki|uc|dort|bes|alti)\s+(?:kisi|oyuncu)\w*|tek\s+bas\w*"
                      r"|solo)\s+(?:\w+\s+)?(?:oyna|oynu|ol)\w*\s+m[iu]\w*")
# Words such a question may hold besides the game's name; any other word is another topic.
_ONLY = re.compile(r"(?:kac\w*|kisi\w*|oyuncu\w*|oyna\w*|oynu\w*|ol\w*|mi\w*|mu\w*|en|fazla|"
                   r"cok|az|max|maks\w*|min\w*|ile|kadar|ve|bu|oyun\w*|de|da|ya|abi|kanka|"
                   r"hocam|peki|acaba|how|many|players?|is|for|the|a|ki|ne|iki|uc|dort|bes|"
                   r"alti|\d+|herkes|biz\w*|sadece|tek|bas\w*|solo|ayni|anda|aralik\w*)")
_MOST = re.compile(r"\ben\s+(?:fazla|cok)\b|\bmaks|\bmax\b")
_LEAST = re.compile(r"\ben\s+az\b|\bmin\b|\bminimum\b")


def headcount_request(question: str, game_words: frozenset[str]) -> bool:
    """The question asks only how many play (the game's own name aside)."""
    folded = fold(question)
    if not (_ASKS.search(folded) or _ALLOWED.search(folded)):
        return False
    words = re.findall(r"[a-z0-9]+", folded)
    return all(w in game_words or _ONLY.fullmatch(w) for w in words)


def answer_headcount(retrieval: Retrieval, corpus: Corpus, chunks: tuple[Chunk, ...],
                     facts: tuple[Fact, ...]) -> Answer | None:
    """The game's player range as the answer to "kaç kişiyle oynanır"; None for any other
    question, a game not named, or a text that says nothing of how many play."""
    if retrieval.game is None or retrieval.game_source not in ("name", "request"):
        return None
    game = corpus.game(retrieval.game)
    names = frozenset(w for a in (*game.aliases, game.name, game.id.replace("-", " "))
                      for w in re.findall(r"[a-z0-9]+", fold(a)))
    # (the query is the question without the game's name, however it was typed: "rebrith")
    if not headcount_request(retrieval.query, names):
        return None
    found = player_range_at([f for f in facts if f.game == game.id], game.text)
    folded = fold(retrieval.question)
    asked = stated_players(retrieval.question)
    if found is None:
        # No count in the text; rules written for both players are two players' rules.
        both = two_player_sentence(game.text)
        if both is None:
            return None
        start, end = both
        said = f"{game.name} metni kaç kişiyle oynandığını yazmıyor; kuralları iki oyuncu için"
        if asked is not None:
            said = f"Evet — {said}" if asked == 2 else f"{said}; {asked} oyuncu için kural yok"
    else:
        lo, hi, where = found
        sentence = next((sp for sp in sentence_spans(game.text) if sp.start <= where < sp.end),
                        None)
        if sentence is None:
            return None
        start, end = sentence.start, sentence.end
        said = f"{game.name} {lo}–{hi} oyuncuyla oynanır"
        if asked is not None:  # "5 kişi olur mu"
            said = (f"Evet — {said}" if lo <= asked <= hi
                    else f"Hayır — {said}; {asked} oyuncu için kural yok")
        elif _MOST.search(folded):
            said = f"En fazla {hi} oyuncu — {said}"
        elif _LEAST.search(folded):
            said = f"En az {lo} oyuncu — {said}"
    quote = " ".join(game.text[start:end].split())
    chunk = next((c for c in chunks if c.game == game.id and c.start <= start < c.end), None)
    cited = AnswerSpan(game.id, start, end)
    return Answer(question=retrieval.question, game=game.id,
                  game_source=retrieval.game_source, abstained=False,
                  answer=f"{said}. {quote}", answer_span=cited,
                  passages=(Hit(chunk, 1.0, 0.0, 0.0),) if chunk else (), facts=(),
                  spans=(cited,), kind="how_many")

