// Before a write's sources (graph/memory_writer.py): the space records the embedder of its first write
// (engram/embedder_identity.py); a write with vectors of another family, or during a re-embedding, is refused, so
// one space never holds vectors of two embedders.
MERGE (space:Space {space: $space, id: $space})
  ON CREATE SET space.name = $space, space.created_at = datetime()
WITH space
CALL apoc.util.validate(space.reembed_to IS NOT NULL,
  'space %s is being re-embedded (engram reembed): writes are refused until it finishes', [$space])
CALL apoc.util.validate(coalesce(space.embedder_family, $embedder.family) <> $embedder.family,
  'space %s holds vectors of embedder %s %s (family %s); this process embeds with %s %s (family %s): write with that embedder, or re-embed the space first (engram reembed)',
  [$space, space.embedder_backend, space.embedder_variant, space.embedder_family, $embedder.backend,
   $embedder.variant, $embedder.family])
SET space.embedder_backend = coalesce(space.embedder_backend, $embedder.backend),
    space.embedder_variant = coalesce(space.embedder_variant, $embedder.variant),
    space.embedder_model = coalesce(space.embedder_model, $embedder.model),
    space.embedder_family = coalesce(space.embedder_family, $embedder.family)
