"""``python -m indexer.model.rebuild``: rebuild the model (see ``indexer.model.rebuild.model``)."""

import sys

from indexer.model.rebuild.model import main

sys.exit(main())
