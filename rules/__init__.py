"""Rule data for benchclaims (shipped as a package so installs find it)."""
