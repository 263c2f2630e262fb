import sys

from helpers import title_case


def main(argv):
    """Print the arguments in title case."""
    print(title_case(" ".join(argv[1:])))


if __name__ == "__main__":
    main(sys.argv)
