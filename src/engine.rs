//! The two ways cubedb answers a query, behind one interface: every puzzle's table engine
//! and search engine implement [`Solve`], and [`Solver`] holds whichever was chosen.

/// Which machinery answers queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Engine {
    /// Exact lookups in precomputed tables (built on first use).
    Table,
    /// Search from scratch with no precomputed table: for benchmarks and cross-checks.
    Search,
}

/// One engine of a puzzle: answers a query (options such as limits are set when the
/// engine is made).
pub trait Solve {
    /// What is asked.
    type Query: ?Sized;
    /// What is answered.
    type Answer;
    /// The answer to `query`.
    fn solve(&self, query: &Self::Query) -> Self::Answer;
}

/// Either engine of a puzzle, behind one interface.
#[derive(Debug, Clone, Copy)]
pub enum Solver<T, S> {
    /// Table lookups.
    Table(T),
    /// Search from scratch.
    Search(S),
}

impl<T, S> Solve for Solver<T, S>
where
    T: Solve,
    S: Solve<Query = T::Query, Answer = T::Answer>,
{
    type Query = T::Query;
    type Answer = T::Answer;

    #[inline]
    fn solve(&self, query: &Self::Query) -> Self::Answer {
        match self {
            Solver::Table(engine) => engine.solve(query),
            Solver::Search(engine) => engine.solve(query),
        }
    }
}
