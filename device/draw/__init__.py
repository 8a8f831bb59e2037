"""Pixels: paint, lines, tiles, the rendered view, its pages and screenshots."""
