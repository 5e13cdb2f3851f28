"""The file engine's database: SQLite through apsw, in the data dir.

Each module here has the name of the shared module whose records it reads
and writes (``journal``, ``jobs``, ``working_memory``, ...), as the Postgres
engine's modules do: the records, their row format and every pure helper
live in those shared modules; only the SQL is here.
"""
