//! The `mplint` command line.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use crate::check::{self, CheckOptions};
use crate::config::{self, Settings};
use crate::report::{self, Format, ReportOptions};
use crate::rules::Level;

/// Lints Puppet manifests with Puppet's own scope and inheritance rules.
#[derive(Debug, Parser)]
#[command(
    name = "mplint",
    version,
    about,
    after_help = "Exit status: 0 when no finding reaches the --fail-on level (default: error), 1 when one does, \
                  2 on a usage or configuration error or when a path could not be read."
)]
pub struct Args {
    /// Files and directories to check; directories are searched for *.pp
    /// files. A file is analysed with the environment, repository or module
    /// it belongs to, and what concerns it is reported.
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

    /// Configuration file (default: .mplint.toml in the first checked path
    /// or the nearest directory above it).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Apply a policy (repeatable): deny-node-scope, strict.
    #[arg(long = "policy", value_name = "NAME")]
    pub policies: Vec<String>,

    /// The lowest level that makes the exit status 1 (default: error).
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,

    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// List suppressed findings too (human output).
    #[arg(long)]
    pub show_suppressed: bool,

    /// Only parse: report what each file alone shows (syntax errors,
    /// illegal resource types), as `puppet parser validate` does, without
    /// the analysis across files.
    #[arg(long)]
    pub syntax_only: bool,

    /// Check named files alone, without the tree they belong to.
    #[arg(long)]
    pub isolated: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Note,
    Warning,
    Error,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
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

/// The configuration the command line asks for: the file (given or found),
/// then `--policy`, `--fail-on`.
fn settings(args: &Args) -> Result<Settings, String> {
    let file = match &args.config {
        Some(file) => Some(file.clone()),
        None => args.paths.first().and_then(|p| config::discover(p)),
    };
    let mut settings = config::load(file.as_deref()).map_err(|e| e.to_string())?;
    for policy in &args.policies {
        config::apply_policy(&mut settings, policy)?;
    }
    if let Some(fail_on) = args.fail_on {
        settings.fail_on = match fail_on {
            FailOn::Note => Level::Note,
            FailOn::Warning => Level::Warning,
            FailOn::Error => Level::Error,
        };
    }
    Ok(settings)
}

/// Runs a check as the command line describes and returns the exit status.
pub fn run(args: Args) -> u8 {
    let settings = match settings(&args) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("mplint: {message}");
            return EXIT_ERROR;
        }
    };
    let fail_on = settings.fail_on;
    let options = CheckOptions {
        jobs: args.jobs.map(usize::from),
        excludes: args.exclude.clone(),
        module_path: args.module_path.clone(),
        settings,
        compile_every_node: false,
        syntax_only: args.syntax_only,
        in_context: !args.isolated,
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
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => to_terminal && std::env::var_os("NO_COLOR").is_none(),
    } && args.format == Format::Human;
    let report_options = ReportOptions {
        base_dir: &base_dir,
        color,
        show_suppressed: args.show_suppressed,
        // Timing only where a person reads it: files and pipes stay reproducible.
        elapsed: to_terminal.then_some(outcome.elapsed),
    };
    let rendered = report::render(args.format, &outcome, &report_options);
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
    if outcome.notices.iter().any(|n| n.named) {
        EXIT_ERROR
    } else if outcome.fails(fail_on) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}
