print("statehouse")
