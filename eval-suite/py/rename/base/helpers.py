def title_case(text):
    """Every word capitalised."""
    return " ".join(word.capitalize() for word in text.split())


def shout(text):
    """Upper case with an exclamation mark."""
    return text.upper() + "!"
