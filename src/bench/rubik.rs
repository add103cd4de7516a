//! The Rubik solvers' benchmarks on random positions: two-phase at several caps, optimal
//! with one preset, the `<R,U>` table and the goal tables.

use super::{human, quantile, some_queries, BenchArgs};
use crate::cube_input::{parse_cube, CubeFormat};
use crate::input::read_input;
use anyhow::{Context, Result};
use clap::ValueEnum;
use cubedb::progress::Progress;
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::time::{Duration, Instant};

/// `bench rubik-twophase`: two-phase solving on one thread, for each length cap.
pub fn twophase(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::api::TwoPhaseSolver;
    use cubedb::puzzles::rubik::twophase::Best;
    use cubedb::puzzles::rubik::{Cube, Metric};
    let store = TableStore::locate(args.data.clone());
    let (name, cubes) = match &args.input {
        Some(path) => {
            let cubes = cubes_of_file(path, CubeFormat::Facelets)?;
            (path.display().to_string(), some_queries(cubes, path)?)
        }
        None => {
            let mut rng = SplitMix64::new(args.seed);
            let cubes = (0..args.count).map(|_| Cube::random(&mut rng)).collect();
            (format!("random, seed {}", args.seed), cubes)
        }
    };
    anyhow::ensure!(!cubes.is_empty(), "no cubes to measure");
    let caps: Vec<(Metric, u32)> = if args.caps.is_empty() {
        vec![
            (Metric::Htm, 21),
            (Metric::Htm, 20),
            (Metric::Qtm, 26),
            (Metric::Qtm, 24),
        ]
    } else {
        args.caps
            .iter()
            .map(|cap| {
                let (metric, n) = cap.split_once(':').unwrap_or(("htm", cap));
                let metric = Metric::from_str(metric, true)
                    .map_err(|e| anyhow::anyhow!("--caps {cap}: {e}"))?;
                let n = n
                    .parse()
                    .with_context(|| format!("--caps {cap}: not a length"))?;
                Ok((metric, n))
            })
            .collect::<Result<_>>()?
    };
    say!(
        "rubik-twophase: {} cubes ({name}), one thread, {} tables",
        cubes.len(),
        if args.compact { "compact" } else { "full" }
    );
    say!(
        "{:<7} {:>4} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8} {:>11} {:>9}",
        "metric",
        "cap",
        "median",
        "mean",
        "p90",
        "p99",
        "max",
        "length",
        "nodes/cube",
        "open"
    );
    for (metric, cap) in caps {
        let (solver, opened) = if args.compact {
            anyhow::ensure!(
                metric == Metric::Htm,
                "--compact: the compact tables count face turns (htm), not {metric:?}"
            );
            let started = Instant::now();
            let solver = TwoPhaseSolver::compact();
            (solver, started.elapsed())
        } else {
            // Built first if missing; the second open is the one timed.
            drop(TwoPhaseSolver::open(
                &store,
                metric,
                &Progress::stderr(args.quiet),
            )?);
            let started = Instant::now();
            let solver = TwoPhaseSolver::open(&store, metric, &Progress::hidden())?;
            (solver, started.elapsed())
        };
        let mut search = solver.search();
        // Warm-up: caches, page tables and the CPU's clock settle before timing.
        for cube in cubes.iter().take(50) {
            solver.solve(&mut search, cube, cap, None, None);
        }
        let mut nodes = 0u64;
        let mut times = Vec::with_capacity(cubes.len());
        let mut total_length = 0u64;
        for (i, cube) in cubes.iter().enumerate() {
            let answer = solver.solve(&mut search, cube, cap, None, None);
            times.push(answer.elapsed);
            nodes += answer.nodes;
            let Best::Within(moves) = answer.best else {
                anyhow::bail!("cube {}: no solution within {cap}", i + 1);
            };
            anyhow::ensure!(
                cube.apply_all(&moves).is_solved() && metric.length(&moves) <= cap,
                "cube {}: wrong solution",
                i + 1
            );
            total_length += metric.length(&moves) as u64;
        }
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        times.sort();
        let metric_name = format!("{metric:?}").to_lowercase();
        say!(
            "{:<7} {:>4} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8.2} {:>11.0} {:>9}",
            metric_name,
            cap,
            human(quantile(&times, 0.5)),
            human(mean),
            human(quantile(&times, 0.9)),
            human(quantile(&times, 0.99)),
            human(quantile(&times, 1.0)),
            total_length as f64 / cubes.len() as f64,
            nodes as f64 / cubes.len() as f64,
            human(opened)
        );
    }
    Ok(())
}

/// `bench rubik-optimal`: optimal solving of random positions with one preset, all threads.
pub fn optimal(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::api::OptimalSolver;
    use cubedb::puzzles::rubik::Cube;
    let store = TableStore::locate(args.data.clone());
    let progress = Progress::stderr(args.quiet);
    let metric = args.metric;
    let started = Instant::now();
    let solver = OptimalSolver::open_all(&store, metric, args.tables, &progress)?;
    let loaded = started.elapsed();
    let pdbs = solver.pdbs()?.context("the solver has tables")?;
    say!(
        "rubik-optimal: {} preset ({:.2} GB), {}, loaded in {}",
        solver.preset().map_or("custom", |p| p.name()),
        pdbs.payload_bytes() as f64 / 1e9,
        metric.unit(),
        human(loaded)
    );
    let mut rng = SplitMix64::new(0x5eed);
    let sample: Vec<Cube> = (0..10_000).map(|_| Cube::random(&mut rng)).collect();
    let started = Instant::now();
    let bounds: Vec<u32> = sample
        .iter()
        .map(|c| solver.lower_bound(c))
        .collect::<Result<_, _>>()?;
    let per_bound = started.elapsed() / sample.len() as u32;
    say!(
        "lower bound on {} random positions: mean {:.3} (table entries alone: mean {:.3}), {} each",
        sample.len(),
        bounds.iter().sum::<u32>() as f64 / bounds.len() as f64,
        pdbs.mean_entry(),
        human(per_bound)
    );
    let cubes: Vec<Cube> = match &args.input {
        Some(path) => {
            let mut cubes = cubes_of_file(path, CubeFormat::Either)?;
            cubes.truncate(args.count as usize);
            say!("{} positions of {}", cubes.len(), path.display());
            cubes
        }
        None => {
            let mut rng = SplitMix64::new(args.seed);
            (0..args.count).map(|_| Cube::random(&mut rng)).collect()
        }
    };
    say!(
        "{:>5} {:>6} {:>15} {:>10} {:>8}",
        "cube",
        "length",
        "nodes",
        "seconds",
        "ns/node"
    );
    let mut times = Vec::new();
    let mut all_nodes = 0u64;
    for (i, cube) in cubes.iter().enumerate() {
        let solution = solver.solve(cube)?;
        let elapsed = solution.elapsed;
        anyhow::ensure!(
            cube.apply_all(&solution.moves).is_solved(),
            "cube {}: wrong solution",
            i + 1
        );
        say!(
            "{:>5} {:>6} {:>15} {:>10.3} {:>8.1}",
            i + 1,
            solution.length,
            solution.nodes,
            elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1e9 / solution.nodes.max(1) as f64
        );
        times.push(elapsed.as_secs_f64());
        all_nodes += solution.nodes;
    }
    if !times.is_empty() {
        let total: f64 = times.iter().sum();
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let median = if sorted.len() % 2 == 1 {
            sorted[sorted.len() / 2]
        } else {
            (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) / 2.0
        };
        say!(
            "median {median:.3} s, mean {:.3} s, {:.1} ns per node on {} threads ({:.1} M nodes/s)",
            total / times.len() as f64,
            total * 1e9 / all_nodes.max(1) as f64,
            rayon::current_num_threads(),
            all_nodes as f64 / total / 1e6
        );
    }
    Ok(())
}

/// The cubes of a benchmark file, one per line read as `format` (blank and `#` lines
/// skipped); an error names the file and the line.
fn cubes_of_file(
    path: &std::path::Path,
    format: CubeFormat,
) -> Result<Vec<cubedb::puzzles::rubik::Cube>> {
    let text = read_input(Some(path))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            parse_cube(line, format, i + 1).with_context(|| format!("{}", path.display()))
        })
        .collect()
}

/// `bench rubik-ru`: optimal R,U solutions of random group positions, both metrics, as
/// `cubedb rubik solve --moves R,U` answers them (a walk down the `<R,U>` table).
pub fn ru(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::api::SolutionFinder;
    use cubedb::puzzles::rubik::{parse_move_set, Cube, Metric};
    let store = TableStore::locate(args.data.clone());
    say!(
        "rubik-ru: {} random <R,U> positions (seed {}), one thread",
        args.count,
        args.seed
    );
    for metric in [Metric::Htm, Metric::Qtm] {
        let turns = parse_move_set("R,U", metric == Metric::Qtm)
            .map_err(|e| anyhow::anyhow!("R,U: {e}"))?;
        let finder = SolutionFinder::open(
            &store,
            metric,
            Some(turns.clone()),
            None,
            true,
            &Progress::stderr(args.quiet),
        )?;
        let mut rng = SplitMix64::new(args.seed);
        // A long random walk reaches every position of the group about equally often.
        let cubes: Vec<Cube> = (0..args.count)
            .map(|_| {
                let walk: Vec<_> = (0..200)
                    .map(|_| turns[rng.below(turns.len() as u64) as usize])
                    .collect();
                Cube::from_moves(&walk)
            })
            .collect();
        let mut lengths = 0u64;
        let mut nodes = 0u64;
        let started = Instant::now();
        for cube in &cubes {
            // Each answer is checked on the cube by the finder.
            let listing = finder.find(cube, 1, false)?;
            lengths += u64::from(listing.optimal);
            nodes += listing.nodes;
            std::hint::black_box(&listing);
        }
        let elapsed = started.elapsed();
        anyhow::ensure!(nodes == 0, "R,U answers came from a search, not the table");
        say!(
            "{:?}: {} per position, mean length {:.2} {}",
            metric,
            human(elapsed / cubes.len().max(1) as u32),
            lengths as f64 / cubes.len().max(1) as f64,
            metric.unit()
        );
    }
    Ok(())
}

/// `bench rubik-goals`: optimal cross on all six faces, and the other goals on D, as
/// `cubedb rubik solve --goal` answers them (each solution checked on the cube).
pub fn goals(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::api::{GoalSolver, GoalSpec};
    use cubedb::puzzles::rubik::{Cube, Metric};
    let store = TableStore::locate(args.data.clone());
    let progress = Progress::stderr(args.quiet);
    let mut rng = SplitMix64::new(args.seed);
    let cubes: Vec<Cube> = (0..args.count).map(|_| Cube::random(&mut rng)).collect();
    say!(
        "rubik-goals: {} random positions (seed {}), one optimal solution each, one thread",
        cubes.len(),
        args.seed
    );
    let open = |name: &str, metric| -> Result<GoalSolver> {
        let spec: GoalSpec = name.parse().map_err(|e: String| anyhow::anyhow!("{e}"))?;
        Ok(GoalSolver::open(&store, spec, metric, &progress)?)
    };
    // The optimal length of `cube` for each solver, summed.
    let total = |solvers: &[GoalSolver], cube: &Cube| -> Result<u64> {
        let mut sum = 0;
        for solver in solvers {
            for answer in solver.solve(cube, false, 0, 1)? {
                sum += u64::from(answer.optimal);
            }
        }
        Ok(sum)
    };
    for metric in [Metric::Htm, Metric::Qtm] {
        let crosses = ["U", "R", "F", "D", "L", "B"]
            .into_iter()
            .map(|face| open(&format!("cross:{face}"), metric))
            .collect::<Result<Vec<_>>>()?;
        let mut sum = 0u64;
        let started = Instant::now();
        for cube in &cubes {
            sum += total(&crosses, cube)?;
        }
        let per = started.elapsed() / cubes.len().max(1) as u32;
        say!(
            "{metric:?} cross, all 6 faces: {} per position, mean {:.2} {}",
            human(per),
            sum as f64 / (6 * cubes.len().max(1)) as f64,
            metric.unit()
        );
        for goal in ["xcross", "f2l-pair", "first-block", "eo"] {
            let solver = [open(goal, metric)?];
            let mut sum = 0u64;
            let started = Instant::now();
            for cube in &cubes {
                sum += total(&solver, cube)?;
            }
            let per = started.elapsed() / cubes.len().max(1) as u32;
            say!(
                "{metric:?} {goal}: {} per position, mean {:.2} {}",
                human(per),
                sum as f64 / cubes.len().max(1) as f64,
                metric.unit()
            );
        }
    }
    Ok(())
}
