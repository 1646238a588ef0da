"""Schema-constrained key generation: a language model can only name keys that exist.

- `tokenization`: how a key is tokenised (as emitted right after a prompt), the new-key escape marker;
- `static_trie`, `delta_trie`, `trie`: the keys as a compact token trie with cheap inserts and removals;
- `processor`, `decoder`: the trie as an Outlines logits processor; one key, k keys by beam search, new keys;
- `runtime`: the model that names keys, on transformers or llama.cpp (`ENGRAM_KEYS_BACKEND`);
- `hierarchy`: category, then key within the category;
- `sync`: a Redis change log that keeps every process's trie current;
- `prompts`: prompts that end where a key begins.

Graph-side pieces (loading from Neo4j, accommodation, the per-process cache) are in `graph/concept_keys/tries.py`.
"""
