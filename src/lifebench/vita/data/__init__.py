"""Package data: demo VitaBench tasks (``<domain>_<language>.json``), read by ``load_bundled_tasks``."""
