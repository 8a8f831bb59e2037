"""The box's ground floor: its words, input checks, time, tunes, logs and stopping."""
