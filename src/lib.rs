//! mplint: a linter and policy checker for Puppet.
//!
//! Layers, each using only those before it: [`input`] (which files),
//! [`syntax`] (text to typed tree), [`rules`] (findings), [`report`] (output
//! formats); [`check`] runs them, keeping findings between runs in
//! [`result_cache`], and [`cli`] is the command line.

pub mod baseline;
pub mod check;
pub mod cli;
pub mod commands;
pub mod config;
pub mod input;
pub mod model;
pub mod paths;
pub mod policy;
pub mod report;
pub mod result_cache;
pub mod rules;
pub mod syntax;

/// The memory a file may make mplint use, above what it uses anyway: a
/// fixed part in KB plus bytes per byte of the file (the worst measured is a
/// line of 40,000 `$x` statements, about 1,000 bytes per byte: every two
/// bytes are a statement with its syntax node, typed tree and evaluation).
/// `mplint-fuzz` checks every input against it, `bench/pathological.py`
/// every pathological shape.
pub const MEMORY_BASE_KB: u64 = 64 * 1024;
pub const MEMORY_PER_BYTE: u64 = 2048;

/// Stack size of the threads that parse and analyse files. Lowering and
/// analysis recurse along the syntax tree, whose depth is bounded by
/// [`syntax::MAX_NESTING`]; this leaves ample room for that bound. Only the
/// pages a thread touches are ever allocated.
pub const WORKER_STACK_SIZE: usize = 512 * 1024 * 1024;

/// Runs `f` on a thread with a stack of [`WORKER_STACK_SIZE`], for work that
/// builds or drops syntax trees of unbounded depth.
pub fn run_with_large_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name("mplint-main".into())
        .stack_size(WORKER_STACK_SIZE)
        .spawn(f)
        .expect("cannot start the main thread")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
