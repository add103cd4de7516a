//! The two ways cubedb answers a query.

/// Which machinery answers queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Engine {
    /// Exact lookups in precomputed tables (built on first use).
    Table,
    /// Search from scratch with no precomputed table: for benchmarks and cross-checks.
    Search,
}
