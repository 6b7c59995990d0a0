print("physics bench: not yet written")
