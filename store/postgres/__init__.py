"""The Postgres engine: every durable state of reverie in one PostgreSQL database with pgvector.

Each module here has the name, and its functions the names and meaning, of
the SQLite engine's module that does the same job; they take a psycopg
(sync) connection inside a transaction the caller owns, and never commit.
"""
