raise RuntimeError("broken on purpose")
