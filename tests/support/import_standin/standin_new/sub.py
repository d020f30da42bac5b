"""``standin_old.moved``'s new home."""

MARK = "standin_new.sub"


def main():
    print("main of standin_new.sub")
