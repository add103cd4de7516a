//! Value parsers for every numeric option, from the library's ranges
//! (`cubedb::limits`): the same rules and words as the Python package.

use cubedb::limits::{parse_seconds, WholeRange};

/// How many positions or scrambles (`rubik random`, `rubik scramble`).
pub fn count(text: &str) -> Result<u64, String> {
    WholeRange::COUNT.parse(text)
}

/// How many solutions (`rubik solve --count`).
pub fn solutions(text: &str) -> Result<u64, String> {
    WholeRange::SOLUTIONS.parse(text)
}

/// Positions a benchmark measures.
pub fn bench_count(text: &str) -> Result<u64, String> {
    WholeRange::BENCH_COUNT.parse(text)
}

/// A seed of the random generator.
pub fn seed(text: &str) -> Result<u64, String> {
    WholeRange::SEED.parse(text)
}

/// A length cap (`--max-length`).
pub fn max_length(text: &str) -> Result<u32, String> {
    WholeRange::MAX_LENGTH.parse(text).map(|n| n as u32)
}

/// The judge's depth limit (`rubik --max-depth`).
pub fn judge_depth(text: &str) -> Result<u32, String> {
    WholeRange::JUDGE_DEPTH.parse(text).map(|n| n as u32)
}

/// Worker threads (`--threads`).
pub fn threads(text: &str) -> Result<std::num::NonZeroUsize, String> {
    WholeRange::THREADS
        .parse(text)
        .map(|n| std::num::NonZeroUsize::new(n as usize).expect("the range starts at 1"))
}

/// A timeout in seconds.
pub fn seconds(text: &str) -> Result<f64, String> {
    parse_seconds(text)
}

/// A sample size of the (slow) search engine in benchmarks.
pub fn sample(text: &str) -> Result<usize, String> {
    WholeRange::COUNT.parse(text).map(|n| n as usize)
}

/// Memory a table build may take, in MB (`--memory`).
pub fn memory_mb(text: &str) -> Result<u64, String> {
    WholeRange::MEMORY_MB.parse(text)
}

/// The longest solution a definition-driven search looks for (`puzzle solve --max-depth`).
pub fn search_depth(text: &str) -> Result<usize, String> {
    WholeRange::SEARCH_DEPTH.parse(text).map(|n| n as usize)
}
