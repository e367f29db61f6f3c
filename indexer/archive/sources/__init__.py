"""Source files into records: page references, the source formats, the importer that writes new
records and keeps each file in ``rulings/sources/``, and the linking of editions."""
