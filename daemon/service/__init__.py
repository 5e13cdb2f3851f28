"""The daemon as an operating-system service: what it needs from the host around it.

``systemd`` speaks systemd's protocols (socket activation, ``sd_notify``
readiness and watchdog, peer credentials); ``units`` renders and installs
the unit files from the ``unit_templates`` package data (the repository's
``systemd/`` folder links there); ``datadir_lock`` keeps a second daemon off
a data dir; ``open_files`` raises the descriptor limit for the configured
connections. None of it knows sessions, memory or the wire.
"""
