"""The gold-session generator and the builder of our bundled knowledge base and tasks."""
