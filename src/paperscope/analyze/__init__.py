"""Analyses over the whole library: topics and the map, statistics."""
