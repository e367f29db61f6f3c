"""``python -m service.cli``: the `rulings` command."""

from service.cli import main

main()  # click exits the process itself (standalone mode): main never returns
