class ChatCompletion:
    """Never built here: ``--cfg job`` prints the config and exits before main() runs."""
