RETURN apoc.version() AS version
