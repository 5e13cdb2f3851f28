"""Sentence embeddings, shared by both engines' indexes: the local int8 model (shipped,
never downloaded at run time) or an OpenAI-compatible endpoint."""
