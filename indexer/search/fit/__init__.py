"""Fitting search offline (`rulings calibrate`): the rows, the models and their honest measure
(models.py), what imported books teach (books.py), the whole calibration (calibrate.py).
scikit-learn is needed here only; serving reads the fit from indexer/search/calibration.py."""
