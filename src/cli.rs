//! The `mplint` command line.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use crate::check::{self, CheckOptions};
use crate::report::{self, Format, ReportOptions};
use crate::rules::Level;

/// Lints Puppet manifests with Puppet's own scope and inheritance rules.
#[derive(Debug, Parser)]
#[command(
    name = "mplint",
    version,
    about,
    after_help = "Exit status: 0 when no error-level finding, 1 when there is at least one, \
                  2 on a usage error or when a path could not be read."
)]
pub struct Args {
    /// Files and directories to check; directories are searched for *.pp files.
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Number of worker threads (default: one per core).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Skip files and directories matching GLOB (repeatable). A pattern
    /// without '/' matches names anywhere, one with '/' matches paths.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// A directory of modules whose classes and defined types are known but
    /// whose own findings are not reported (repeatable).
    #[arg(long = "modulepath", value_name = "DIR")]
    pub module_path: Vec<PathBuf>,
}

/// Exit statuses.
pub const EXIT_CLEAN: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_ERROR: u8 = 2;

pub fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { EXIT_ERROR } else { EXIT_CLEAN });
        }
    };
    ExitCode::from(crate::run_with_large_stack(move || run(args)))
}

/// Runs a check as the command line describes and returns the exit status.
pub fn run(args: Args) -> u8 {
    let options = CheckOptions {
        jobs: args.jobs.map(usize::from),
        excludes: args.exclude.clone(),
        module_path: args.module_path.clone(),
    };
    let outcome = match check::check(&args.paths, &options) {
        Ok(outcome) => outcome,
        Err(err) => {
            eprintln!("mplint: {err}");
            return EXIT_ERROR;
        }
    };
    let base_dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = to_terminal && args.format == Format::Human && std::env::var_os("NO_COLOR").is_none();
    let rendered = report::render(args.format, &outcome, &ReportOptions { base_dir: &base_dir, color });
    let written = match &args.output {
        Some(path) => std::fs::write(path, &rendered).map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => std::io::stdout().lock().write_all(&rendered).map_err(|e| format!("cannot write the report: {e}")),
    };
    if let Err(message) = written {
        eprintln!("mplint: {message}");
        return EXIT_ERROR;
    }
    if args.format != Format::Human {
        for notice in &outcome.notices {
            eprintln!("mplint: {}", notice.message);
        }
    }
    if std::io::stderr().is_terminal() {
        eprintln!("mplint: done in {:.2}s", outcome.elapsed.as_secs_f64());
    }
    if !outcome.notices.is_empty() {
        EXIT_ERROR
    } else if outcome.count(Level::Error) > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}
