"""placeholder"""
def replace_pattern(*a, **k):
    raise NotImplementedError("replace_pattern")
