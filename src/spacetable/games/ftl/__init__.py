"""Faster Than Light: secret plotted orders, then launches, rotations and simultaneous
sprints resolved exactly along the tape (DESIGN section 5)."""
