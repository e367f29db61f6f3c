"""The PDF reader: a rulebook PDF read into blocks with printed pages and sections.

* ``chars``: a page's characters, and those set apart from their line (drop capitals,
  raised footnote marks);
* ``page``: one page's characters set into lines, its column frame and its fills, and the
  text it sets at an angle;
* ``lanes``: side heads and box titles in a lane beside a column's text;
* ``furniture``: running headers, footers and printed page numbers, found across pages;
* ``order``: a page's lines in reading order;
* ``marks``: what each line of the body is (heading, box, footnote ...);
* ``columns``: each column's edges, and whether the book parts paragraphs with space;
* ``reader``: the blocks, from the lines in reading order (``read_pdf``, ``layout``).
"""

from indexer.archive.sources.pdf.order import reading_order
from indexer.archive.sources.pdf.reader import PdfError, layout, read_pdf

__all__ = ["PdfError", "layout", "read_pdf", "reading_order"]
