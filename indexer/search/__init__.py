"""Search: passages and their index (FAISS + BM25), a question analysed once, the stages that
score candidates, the fitted reranker and decline, their fit and their evaluation."""
