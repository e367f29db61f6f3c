"""The tests, one folder per product package. A package, so that every test module imports under
its own dotted name (tests.<folder>.<module>) and helpers import as tests.conftest, tests.fakes."""
