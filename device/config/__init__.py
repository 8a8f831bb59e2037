"""The box's settings: their sections, the file that sets them, house rules, a command's box."""
