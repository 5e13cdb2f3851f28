"""The file engine: every durable state in the data dir, a module per concept named as ``base/``'s.

SQLite through apsw for the log, jobs and working memory (``db``, ``schema``
and the SQL of each concept: ``journal``, ``jobs``, ``working_memory``, ...;
the records, their row format and every pure helper live in ``base/``'s
modules of the same names, as the Postgres engine's do). The Markdown tree
for each scope's long-term memory (``memory_store`` over ``memory_files``):
files a person may read and edit by hand, their edits noticed by a scan.
LanceDB for the search index (``index`` over ``index_lifecycle``): vectors
and the words of episodes and facts, in generations of tables that an
optimize seals and a merge folds; a forget, a merge and a rebuild copy the
directory and swap the copy in (``actors/search``).
"""
