"""Prompts that end where a key begins: on a fresh line, so the key's first token is its standalone one."""

from __future__ import annotations

from engram.concept_keys.tokenization import NEW_KEY_MARKER


def query_keys_prompt(query: str) -> str:
    return (
        "Name the memory keys (concepts) this question is about, one per line, exactly as they are written "
        f"in the memory.\nQuestion: {query.strip()}\nKey:\n"
    )


def concept_key_prompt(fact: str, phrase: str) -> str:
    return (
        "Which existing memory key does this concept of the fact belong to? Write the key exactly; if none "
        f"fits, write {NEW_KEY_MARKER} followed by a short new key.\nFact: {fact.strip()}\n"
        f"Concept: {phrase.strip()}\nKey:\n"
    )
