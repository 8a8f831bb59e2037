"""The box's parts behind backend tables: pins, button, buzzer, camera, replay, screen."""
