"""`python -m extractor` runs the benchclaims command line."""
from extractor.cli import main

main()
