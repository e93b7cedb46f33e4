//! A mutation fuzzer for mplint that runs on stable Rust.
//!
//!     mplint-fuzz run --target parse|check [--seconds S] [--iterations N]
//!                     [--seed N] [--out DIR] [--seeds DIR]...
//!     mplint-fuzz replay --target parse|check PATH...
//!
//! Inputs run in a worker process, so that panics, aborts, timeouts and
//! memory blow-ups are all seen and the fuzzer goes on. The same seed and
//! seed files give the same inputs.

mod driver;
mod input;
mod mutate;
mod rng;
mod seeds;
mod worker;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use driver::{Limits, Outcome, Worker};
use input::{Input, Target};
use rng::Rng;

// The allocator mplint itself runs with, so that memory is measured as it is.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Inputs kept for further mutation, at most.
const MAX_POOL: usize = 20_000;

struct Options {
    target: Target,
    seconds: Option<u64>,
    iterations: Option<u64>,
    seed: u64,
    out: PathBuf,
    seed_dirs: Vec<PathBuf>,
    paths: Vec<PathBuf>,
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: mplint-fuzz run --target parse|check [--seconds S] [--iterations N] [--seed N] [--out DIR] [--seeds DIR]...\n       mplint-fuzz replay --target parse|check PATH..."
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("worker") => match args.get(1).and_then(|t| Target::from_name(t)) {
            Some(target) => worker::main(target),
            None => usage(),
        },
        Some(command @ ("run" | "replay")) => {
            let Some(options) = parse_options(&args[1..]) else { return usage() };
            if command == "run" {
                run(&options)
            } else {
                replay(&options)
            }
        }
        _ => usage(),
    }
}

fn parse_options(args: &[String]) -> Option<Options> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?.to_path_buf();
    let mut options = Options {
        target: Target::Parse,
        seconds: None,
        iterations: None,
        seed: 1,
        out: root.join("target/fuzz"),
        seed_dirs: Vec::new(),
        paths: Vec::new(),
    };
    let mut target = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--target" => target = Target::from_name(args.next()?),
            "--seconds" => options.seconds = Some(args.next()?.parse().ok()?),
            "--iterations" => options.iterations = Some(args.next()?.parse().ok()?),
            "--seed" => options.seed = args.next()?.parse().ok()?,
            "--out" => options.out = PathBuf::from(args.next()?),
            "--seeds" => options.seed_dirs.push(PathBuf::from(args.next()?)),
            path if !path.starts_with('-') => options.paths.push(PathBuf::from(path)),
            _ => return None,
        }
    }
    options.target = target?;
    if options.seed_dirs.is_empty() {
        options.seed_dirs = vec![root.join("grammar/test/corpus"), root.join("tests"), root.join("examples")];
        let debian = PathBuf::from("/usr/share/puppet/modules");
        if debian.is_dir() {
            options.seed_dirs.push(debian);
        }
    }
    Some(options)
}

/// A failure seen, with the first input that showed it.
struct Failure {
    count: u64,
    iteration: u64,
    detail: String,
}

fn run(options: &Options) -> ExitCode {
    let target = options.target;
    let limits = Limits::for_target(target);
    let seeds = seeds::load(&options.seed_dirs);
    if seeds.is_empty() {
        eprintln!("mplint-fuzz: no seeds under {:?}", options.seed_dirs);
        return ExitCode::from(2);
    }
    let mut setup = Rng::new(options.seed);
    let mut pool: Vec<Input> = match target {
        Target::Parse => seeds.iter().map(input::file_from).collect(),
        Target::Check => (0..seeds.len().min(2000)).map(|_| input::tree_from(&mut setup, &seeds)).collect(),
    };
    let initial = pool.len();
    println!(
        "mplint-fuzz: target {}, seed {}, {} seed files, {} initial inputs; CPU budget {:.1} s + {} ms/KB, memory bound {} MB + {}×size",
        target.name(),
        options.seed,
        seeds.len(),
        initial,
        limits.cpu_base.as_secs_f64(),
        limits.cpu_per_kb.as_millis(),
        limits.memory_base_kb / 1024,
        limits.memory_per_byte
    );
    let started = Instant::now();
    let deadline = options.seconds.map(|s| started + Duration::from_secs(s));
    let mut worker = Worker::spawn(target);
    let mut features: HashSet<u64> = HashSet::new();
    let mut failures: BTreeMap<String, Failure> = BTreeMap::new();
    let mut worst_memory = (0u64, 0usize);
    let mut flaky = 0u64;
    let mut last_report = Instant::now();
    let mut iteration = 0u64;
    loop {
        if options.iterations.is_some_and(|n| iteration >= n) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut rng = Rng::for_iteration(options.seed, iteration);
        // The seeds first as they are, then mutants.
        let input = if (iteration as usize) < initial {
            pool[iteration as usize].clone()
        } else {
            let mut input = rng.pick(&pool).clone();
            match target {
                Target::Parse => {
                    let donors = |rng: &mut Rng| rng.pick(&seeds).bytes.clone();
                    mutate::mutate(&mut rng, &mut input.files[0].1, &donors);
                }
                Target::Check => input::mutate_tree(&mut rng, &mut input, &seeds),
            }
            input
        };
        match worker.run(&input, &limits) {
            Outcome::Ok { peak_kb, features: found } => {
                if peak_kb > worst_memory.0 {
                    worst_memory = (peak_kb, input.size());
                }
                let mut new = false;
                for f in found {
                    new |= features.insert(f);
                }
                if new && (iteration as usize) >= initial {
                    if pool.len() < MAX_POOL {
                        pool.push(input);
                    } else {
                        let at = rng.below(pool.len());
                        pool[at] = input;
                    }
                }
            }
            Outcome::Failed { signature, detail } => {
                worker = Worker::spawn(target);
                // A timeout must show again on a fresh worker: a loaded
                // machine is no hang.
                if signature.ends_with("timeout") {
                    let again = Worker::spawn(target).run(&input, &limits);
                    if !matches!(&again, Outcome::Failed { signature: s, .. } if *s == signature) {
                        flaky += 1;
                        println!(
                            "timeout at iteration {iteration} not reproduced on a fresh worker: {}",
                            first_line(&detail)
                        );
                        iteration += 1;
                        continue;
                    }
                }
                match failures.get_mut(&signature) {
                    Some(seen) => seen.count += 1,
                    None => {
                        println!("new failure at iteration {iteration}: {signature}\n  {}", first_line(&detail));
                        let minimal = minimise(&input, &signature, target, &limits);
                        let saved = save(&options.out, &signature, &input, &minimal, iteration, options.seed, &detail);
                        println!(
                            "  saved to {} ({} bytes, minimised to {})",
                            saved.display(),
                            input.size(),
                            minimal.size()
                        );
                        failures.insert(signature, Failure { count: 1, iteration, detail });
                    }
                }
            }
        }
        iteration += 1;
        if last_report.elapsed() >= Duration::from_secs(30) {
            last_report = Instant::now();
            println!(
                "{:>6.0} s: {iteration} iterations ({:.0}/s), pool {}, features {}, unique signatures {}",
                started.elapsed().as_secs_f64(),
                iteration as f64 / started.elapsed().as_secs_f64(),
                pool.len(),
                features.len(),
                failures.len()
            );
        }
    }
    println!(
        "mplint-fuzz: target {}: {iteration} iterations in {:.0} s, {} features, worst memory {} KB for {} bytes, timeouts not reproduced: {flaky}, unique signatures: {}",
        target.name(),
        started.elapsed().as_secs_f64(),
        features.len(),
        worst_memory.0,
        worst_memory.1,
        failures.len()
    );
    for (signature, failure) in &failures {
        println!(
            "  {signature}: {} times, first at iteration {}: {}",
            failure.count,
            failure.iteration,
            first_line(&failure.detail)
        );
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs saved inputs (a file for the parse target, a directory for check).
fn replay(options: &Options) -> ExitCode {
    let limits = Limits::for_target(options.target);
    let mut failed = false;
    for path in &options.paths {
        let input = match load(path, options.target) {
            Ok(input) => input,
            Err(e) => {
                eprintln!("mplint-fuzz: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        let mut worker = Worker::spawn(options.target);
        let started = Instant::now();
        match worker.run(&input, &limits) {
            Outcome::Ok { peak_kb, .. } => println!(
                "{}: ok, {} bytes, {:.2} s, peak {peak_kb} KB",
                path.display(),
                input.size(),
                started.elapsed().as_secs_f64()
            ),
            Outcome::Failed { signature, detail } => {
                failed = true;
                println!("{}: {signature}\n{detail}", path.display());
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn load(path: &Path, target: Target) -> std::io::Result<Input> {
    match target {
        Target::Parse => Ok(Input { files: vec![("input.pp".into(), std::fs::read(path)?)] }),
        Target::Check => {
            let mut files = Vec::new();
            collect(path, path, &mut files)?;
            files.sort();
            Ok(Input { files })
        }
    }
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(root, &path, files)?;
        } else {
            let name = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().into_owned();
            files.push((name, std::fs::read(&path)?));
        }
    }
    Ok(())
}

/// Most runs spent shrinking one failing input, and the time they may take.
const MINIMISE_RUNS: usize = 400;
const MINIMISE_TIME: Duration = Duration::from_secs(180);

/// A smaller input with the same signature: whole files dropped first, then
/// halving chunks of each file, then single bytes.
fn minimise(input: &Input, signature: &str, target: Target, limits: &Limits) -> Input {
    let started = Instant::now();
    let mut runs = 0;
    let mut best = input.clone();
    let mut still_fails = |candidate: &Input| -> bool {
        if runs >= MINIMISE_RUNS || started.elapsed() > MINIMISE_TIME {
            return false;
        }
        runs += 1;
        let mut worker = Worker::spawn(target);
        matches!(worker.run(candidate, limits), Outcome::Failed { signature: s, .. } if s == signature)
    };
    let mut i = 0;
    while best.files.len() > 1 && i < best.files.len() {
        let mut candidate = best.clone();
        candidate.files.remove(i);
        if still_fails(&candidate) {
            best = candidate;
        } else {
            i += 1;
        }
    }
    for f in 0..best.files.len() {
        let mut chunk = best.files[f].1.len().div_ceil(2).max(1);
        loop {
            let mut at = 0;
            while at < best.files[f].1.len() {
                let mut candidate = best.clone();
                let end = (at + chunk).min(candidate.files[f].1.len());
                candidate.files[f].1.drain(at..end);
                if still_fails(&candidate) {
                    best = candidate;
                } else {
                    at += chunk;
                }
            }
            if chunk == 1 {
                break;
            }
            chunk = chunk.div_ceil(2);
        }
    }
    best
}

fn save(
    out: &Path,
    signature: &str,
    original: &Input,
    minimal: &Input,
    iteration: u64,
    seed: u64,
    detail: &str,
) -> PathBuf {
    let slug: String = signature
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let dir = out.join(&slug[..slug.len().min(100)]);
    let _ = std::fs::create_dir_all(&dir);
    for (name, input) in [("minimal", minimal), ("original", original)] {
        if input.files.len() == 1 && input.files[0].0 == "input.pp" {
            let _ = std::fs::write(dir.join(format!("{name}.pp")), &input.files[0].1);
        } else {
            let _ = input.materialise(&dir.join(name));
        }
    }
    let _ = std::fs::write(
        dir.join("signature.txt"),
        format!("{signature}\nseed {seed}, iteration {iteration}\n{detail}\n"),
    );
    dir
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}
