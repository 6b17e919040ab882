"""One module per ``arbiter`` sub-command; each defines ``command``."""
