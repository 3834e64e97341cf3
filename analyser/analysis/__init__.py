"""Analyses built on the engine: decision what-ifs, match equity, their statistics and charts."""
