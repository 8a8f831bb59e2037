"""The match store: its events and their codec, the store, its schema and shapes, match files."""
