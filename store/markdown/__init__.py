"""The file engine's long-term memory: each scope's ``MEMORY.md`` and history as Markdown.

Files a person may read and edit by hand; edits are noticed by a scan.
"""
