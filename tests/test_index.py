import json
import os
import shutil

import faiss
import numpy as np
import pytest

from hakem.corpus import load_corpus
from hakem.embed import FakeEmbedder
from hakem.errors import IndexNotReady
from hakem.index import CURRENT, build_index, load_index, verify_index


def test_faiss_topk_equals_bruteforce_numpy():
    rng = np.random.default_rng(7)
    docs = rng.normal(size=(300, 48)).astype(np.float32)
    docs /= np.linalg.norm(docs, axis=1, keepdims=True)
    queries = rng.normal(size=(20, 48)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    index = faiss.IndexFlatIP(48)
    index.add(docs)
    scores, ids = index.search(queries, 10)
    brute = queries @ docs.T
    expected = np.argsort(-brute, axis=1, kind="stable")[:, :10]
    np.testing.assert_array_equal(ids, expected)
    np.testing.assert_allclose(scores, np.take_along_axis(brute, expected, axis=1), rtol=1e-5)


def test_built_index_vectors_match_bruteforce(tiny_built):
    corpus = load_corpus(tiny_built.corpus_dir)
    idx = load_index(tiny_built.index_dir, corpus, tiny_built.corpus_dir, FakeEmbedder())
    vectors = idx.vectors.reconstruct_n(0, idx.vectors.ntotal)
    q = FakeEmbedder().query("kale kaç puan").reshape(1, -1)
    _, ids = idx.vectors.search(q, 3)
    np.testing.assert_array_equal(ids[0], np.argsort(-(vectors @ q[0]), kind="stable")[:3])


def test_manifest_records_model_dimension_hash_and_checksums(tiny_built):
    manifest = json.loads((tiny_built.index_dir / CURRENT / "manifest.json").read_text())
    assert manifest["format_version"] == 2
    assert manifest["embedder"] == "fake:64" and manifest["dimension"] == 64
    assert set(manifest["files"]) == {"vectors.faiss", "chunks.jsonl", "facts.sqlite",
                                      "sentences.npy", "sentences.jsonl"}
    assert len(manifest["corpus_hash"]) == 64


def _corpus(settings):
    return load_corpus(settings.corpus_dir)


def test_missing_index_is_a_clear_error(tiny_settings):
    with pytest.raises(IndexNotReady, match=r"no index.*hakem build"):
        verify_index(tiny_settings.index_dir, _corpus(tiny_settings),
                     tiny_settings.corpus_dir, None)


@pytest.mark.parametrize("victim", ["vectors.faiss", "chunks.jsonl", "facts.sqlite"])
def test_truncated_or_altered_file_is_detected(tiny_built, victim):
    path = tiny_built.index_dir / CURRENT / victim
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(IndexNotReady, match=f"{victim} is damaged"):
        load_index(tiny_built.index_dir, _corpus(tiny_built), tiny_built.corpus_dir, FakeEmbedder())


def test_deleted_file_is_detected(tiny_built):
    os.remove(tiny_built.index_dir / CURRENT / "vectors.faiss")
    with pytest.raises(IndexNotReady, match="missing"):
        verify_index(tiny_built.index_dir, _corpus(tiny_built), tiny_built.corpus_dir, None)


def test_damaged_manifest_is_detected(tiny_built):
    (tiny_built.index_dir / CURRENT / "manifest.json").write_text("{not json")
    with pytest.raises(IndexNotReady, match="manifest is damaged"):
        verify_index(tiny_built.index_dir, _corpus(tiny_built), tiny_built.corpus_dir, None)


def test_other_corpus_or_model_is_refused(tiny_built):
    with pytest.raises(IndexNotReady, match="embedder"):
        load_index(tiny_built.index_dir, _corpus(tiny_built), tiny_built.corpus_dir,
                   FakeEmbedder(dim=32))
    text = tiny_built.corpus_dir / "kale-oyunu.txt"
    text.write_text(text.read_text(encoding="utf-8") + "Yeni kural.\n", encoding="utf-8")
    with pytest.raises(IndexNotReady, match="different corpus"):
        verify_index(tiny_built.index_dir, _corpus(tiny_built), tiny_built.corpus_dir, None)


class _Boom(FakeEmbedder):
    def documents(self, texts):
        raise KeyboardInterrupt  # a build killed half-way


def test_interrupted_build_leaves_previous_index_serving(tiny_built):
    corpus = _corpus(tiny_built)
    before = (tiny_built.index_dir / CURRENT).resolve()
    with pytest.raises(KeyboardInterrupt):
        build_index(corpus, tiny_built.corpus_dir, tiny_built.index_dir, _Boom())
    assert (tiny_built.index_dir / CURRENT).resolve() == before
    load_index(tiny_built.index_dir, corpus, tiny_built.corpus_dir, FakeEmbedder())


def test_rebuild_swaps_and_cleans_old_builds(tiny_built):
    corpus = _corpus(tiny_built)
    for _ in range(3):
        build_index(corpus, tiny_built.corpus_dir, tiny_built.index_dir, FakeEmbedder())
    builds = [p for p in (tiny_built.index_dir / "builds").iterdir()]
    assert len(builds) <= 2  # the current build and the one before it
    shutil.rmtree(tiny_built.index_dir / CURRENT, ignore_errors=True)
