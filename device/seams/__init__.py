"""The seams to vision and engine: searches, readings, the live reading, frame sources."""
