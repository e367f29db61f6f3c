"""The archive: the record schema, loading and lint, writing records, the parsed-archive cache,
the catalogue (what the archive alone answers) and card names; ``sources/`` turns source files
into records."""
