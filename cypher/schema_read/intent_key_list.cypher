// A space's intents as keys (their text), for the decoding trie.
MATCH (i:Intent {space: $space})
WHERE i.text IS NOT NULL
RETURN i.text AS key
