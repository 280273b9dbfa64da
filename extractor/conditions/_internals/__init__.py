"""Speed-only machinery of the conditions stage, behind the readers' interfaces: lookups by bisection, the
rungs many claims read alike (built and derived from once per document), memo keys, tallies, and the pool
of identical conditions. Nothing here decides a condition: each piece gives the answer the plain reading
would, sooner."""
