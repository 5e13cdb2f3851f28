"""reverie's benchmarks: ``python -m bench`` runs each module's ``main()`` in turn."""
