"""The page players meet (``page.py``), its scripts and styles (``static/``) and templates."""
