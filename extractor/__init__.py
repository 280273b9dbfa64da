"""benchclaims: LLM-inference benchmark claims and their load conditions, with provenance."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("benchclaims")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.0.0"
