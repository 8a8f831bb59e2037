"""The box put together: assembly, the main loop, scripts and restarts."""
