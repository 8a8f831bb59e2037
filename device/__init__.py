"""The box: button, buzzer, timer, camera, screen, the referee's flow, the match store,
configuration and the ``cuberef`` command line."""
