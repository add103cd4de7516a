//! Cubic eight-puzzle: judge sample, all judge inputs against the facts, table vs search.
