"""Private helpers; nothing here is public API."""
