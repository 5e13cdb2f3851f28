"""What every storage engine shares: the group-commit database and the seam's types.

Nothing here imports an engine (apsw, psycopg, lancedb): an engine plugs in
by giving a ``Connector`` (how to connect, begin, commit, translate its
errors) to ``GroupCommit``.
"""
