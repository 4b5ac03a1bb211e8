"""Model files (ONNX + metadata + cards) and, under ``models.train``, the code that makes them."""
