"""What each state of the box shows on its screen."""
