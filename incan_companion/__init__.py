"""The composition root: builds the device from its config, and the command line."""
