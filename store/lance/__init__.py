"""The file engine's search index: LanceDB tables in a directory of the data dir.

Vectors and the words of episodes and facts, in generations of tables that
an optimize seals and a merge folds; a forget, a merge and a rebuild copy
the directory and swap the copy in (``actors/search``).
"""
