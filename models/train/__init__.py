"""Training of the piece classifier: ``python -m models.train`` (or ``make train``)."""
