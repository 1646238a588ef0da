// Every vector of the space is the new embedder's: the space records it and takes writes again.
MATCH (s:Space {space: $space, id: $space})
SET s.embedder_backend = $embedder.backend, s.embedder_variant = $embedder.variant,
    s.embedder_model = $embedder.model, s.embedder_family = $embedder.family
REMOVE s.reembed_to, s.reembed_cursor
