from enum import Enum


class ApiKeyRole(str, Enum):
    READER = "READER"
    WRITER = "WRITER"
    OWNER = "OWNER"


class InputFormat(str, Enum):
    JSONL = "JSONL"
    JSON = "JSON"


class JobState(str, Enum):
    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"


class KnowledgeStatus(str, Enum):
    ACTIVE = "ACTIVE"
    SUPERSEDED = "SUPERSEDED"


class LinkType(str, Enum):
    RELATED_TO = "RELATED_TO"
    NEXT = "NEXT"
    CAUSED_BY = "CAUSED_BY"
    CONTRASTS_WITH = "CONTRASTS_WITH"
    ASSOCIATED = "ASSOCIATED"
    SAME_AS = "SAME_AS"
    MENTIONS = "MENTIONS"
    PROVEN_BY = "PROVEN_BY"
    SUPERSEDES = "SUPERSEDES"
    IN = "IN"
    PART_OF = "PART_OF"
    SOLVES = "SOLVES"


class MemoryKind(str, Enum):
    PROPOSITION = "PROPOSITION"
    PRESCRIPTION = "PRESCRIPTION"
    EPISODE = "EPISODE"


class MemoryType(str, Enum):
    EPISODIC = "EPISODIC"
    SEMANTIC = "SEMANTIC"
    PROCEDURAL = "PROCEDURAL"


class PathKind(str, Enum):
    CONCEPT = "CONCEPT"
    TIME = "TIME"
    EMOTION = "EMOTION"
    HABIT = "HABIT"
    TWO_HOPS = "TWO_HOPS"
    WORDING = "WORDING"
