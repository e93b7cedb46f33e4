//! The `mplint` command line.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use crate::baseline::{self, Baseline};
use crate::check::{self, CheckOptions};
use crate::commands;
use crate::config::{self, Settings};
use crate::report::{self, Format, ReportOptions};
use crate::rules::Level;
use crate::syntax::cache::ParseCache;

/// Lints Puppet manifests with Puppet's own scope and inheritance rules.
#[derive(Debug, Parser)]
#[command(
    name = "mplint",
    version,
    about,
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  \
                  mplint                         check the current directory\n  \
                  mplint site/ modules/          check these directories together\n  \
                  mplint -f sarif -o out.sarif   write SARIF for GitHub code scanning\n  \
                  mplint rules                   list the rules\n  \
                  mplint rule node-scope-leak    explain one\n\n\
                  Exit status: 0 when no finding reaches the --fail-on level (default: error), 1 when one does, \
                  2 on a usage or configuration error or when a path could not be read.\n\
                  A directory named like a subcommand is checked as ./NAME (mplint ./rules)."
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Files and directories to check; directories are searched for *.pp
    /// files. A file, or a directory inside a module (`examples/`), is
    /// analysed with the environment, repository or module it belongs to,
    /// and what concerns it is reported. `-` reads a manifest
    /// from standard input (see --stdin-filename).
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Human, help_heading = "Report")]
    pub format: Format,

    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE", help_heading = "Report")]
    pub output: Option<PathBuf>,

    /// Number of worker threads (default: one per core).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Input")]
    pub jobs: Option<u16>,

    /// Skip files and directories matching GLOB (repeatable). A pattern
    /// without '/' matches names anywhere, one with '/' matches paths.
    #[arg(long, value_name = "GLOB", help_heading = "Input")]
    pub exclude: Vec<String>,

    /// A directory of modules whose classes and defined types are known but
    /// whose own findings are not reported (repeatable).
    #[arg(long = "modulepath", value_name = "DIR", help_heading = "Input")]
    pub module_path: Vec<PathBuf>,

    /// Configuration file (default: .mplint.toml in the first checked path
    /// or the nearest directory above it).
    #[arg(long, value_name = "FILE", help_heading = "Rules and levels")]
    pub config: Option<PathBuf>,

    /// Apply a policy (repeatable): a preset (deny-node-scope, strict,
    /// security, roles-profiles) or a policy file (FILE.toml) with
    /// constraints of your own.
    #[arg(long = "policy", value_name = "NAME|FILE", help_heading = "Rules and levels")]
    pub policies: Vec<String>,

    /// The lowest level that makes the exit status 1 (default: error).
    #[arg(long, value_enum, value_name = "LEVEL", help_heading = "Rules and levels")]
    pub fail_on: Option<FailOn>,

    /// Set a rule's level: off, note, warning or error (repeatable; wins
    /// over the configuration file and policies).
    #[arg(long = "rule", value_name = "ID=LEVEL", help_heading = "Rules and levels")]
    pub rules: Vec<String>,

    /// Report only findings that FILE (written by --write-baseline) does not
    /// hold, and say how many it held and how many of its findings are gone.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline", help_heading = "Baseline")]
    pub baseline: Option<PathBuf>,

    /// Record today's findings in FILE, for --baseline, instead of reporting them.
    #[arg(long, value_name = "FILE", help_heading = "Baseline")]
    pub write_baseline: Option<PathBuf>,

    /// The path the manifest read from standard input (`-`) stands for: its
    /// findings are reported at that path.
    #[arg(long, value_name = "PATH", help_heading = "Input")]
    pub stdin_filename: Option<PathBuf>,

    /// Print only findings: no summary line and no notes on standard error.
    #[arg(short, long, help_heading = "Report")]
    pub quiet: bool,

    /// After the report, count the findings of each rule.
    #[arg(long, help_heading = "Report")]
    pub statistics: bool,

    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, help_heading = "Report")]
    pub color: ColorChoice,

    /// List suppressed findings too (human output).
    #[arg(long, help_heading = "Report")]
    pub show_suppressed: bool,

    /// Only parse: report what each file alone shows (syntax errors,
    /// illegal resource types), as `puppet parser validate` does, without
    /// the analysis across files.
    #[arg(long, help_heading = "Input")]
    pub syntax_only: bool,

    /// Check named files and directories alone, without the tree they
    /// belong to.
    #[arg(long)]
    pub isolated: bool,

    /// Parse and analyse everything, without reading or writing the cache
    /// of parse results and findings (kept in the user's cache directory,
    /// or in MPLINT_CACHE_DIR).
    #[arg(long, help_heading = "Input")]
    pub no_cache: bool,
}

/// What mplint can do besides checking.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every rule with its id, default level and what it reports.
    Rules,
    /// Show a rule's documentation.
    Rule {
        /// The rule's id, as `mplint rules` lists it.
        id: String,
    },
    /// List the built-in policies and what each does.
    Policies,
    /// Write a commented .mplint.toml with every setting (never over an existing one).
    Init {
        /// Where to write it.
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Print a shell completion script for bash, zsh, fish, elvish or powershell.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `mplint manpage > mplint.1`.
    Manpage,
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

fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

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
    for rule in &args.rules {
        let (id, level) = rule
            .split_once('=')
            .ok_or_else(|| format!("--rule {rule}: expected ID=LEVEL, such as --rule node-scope-leak=error"))?;
        let id = id.trim();
        let constraint = settings.constraints.iter().find(|c| c.id == id).map(|c| c.id);
        let id = crate::rules::rule_info(id)
            .map(|info| info.id)
            .or(constraint)
            .ok_or_else(|| format!("--rule {rule}: {}", commands::unknown_rule(id)))?;
        let level = config::parse_rule_level(level.trim())
            .ok_or_else(|| format!("--rule {rule}: level `{}`; expected off, note, warning or error", level.trim()))?;
        settings.levels.insert(id, level);
        settings.pinned.insert(id);
    }
    Ok(settings)
}

/// Runs a subcommand; returns the exit status.
fn run_command(command: Command) -> u8 {
    let stdout = std::io::stdout();
    let result = match command {
        Command::Rules => commands::list_rules(&mut stdout.lock()).map_err(|e| e.to_string()),
        Command::Policies => commands::list_policies(&mut stdout.lock()).map_err(|e| e.to_string()),
        Command::Rule { id } => {
            let styled = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
            commands::show_rule(&id, styled, &mut stdout.lock())
        }
        Command::Init { dir } => commands::init(&dir).map(|file| {
            eprintln!("mplint: wrote {}", file.display());
        }),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Args::command(), "mplint", &mut stdout.lock());
            Ok(())
        }
        Command::Manpage => {
            clap_mangen::Man::new(Args::command()).render(&mut stdout.lock()).map_err(|e| e.to_string())
        }
    };
    match result {
        Ok(()) => EXIT_CLEAN,
        Err(message) => {
            eprintln!("mplint: {message}");
            EXIT_ERROR
        }
    }
}

/// A hint for a path that does not exist but reads like a mistyped
/// subcommand (`mplint rulez`).
fn subcommand_hint(paths: &[PathBuf]) -> Option<String> {
    let command = Args::command();
    paths.iter().filter(|p| p.components().count() == 1 && !p.exists()).find_map(|path| {
        let given = path.to_str()?;
        command
            .get_subcommands()
            .map(|c| c.get_name())
            .filter(|name| *name != "help")
            .find(|name| strsim::jaro_winkler(given, name) > 0.85)
            .map(|name| format!("`{given}` is not a file or directory; did you mean the subcommand `mplint {name}`?"))
    })
}

/// `--statistics`: unsuppressed findings per rule, most frequent first.
fn statistics(outcome: &check::CheckOutcome) -> String {
    let mut counts: std::collections::BTreeMap<&str, (usize, Level)> = std::collections::BTreeMap::new();
    for finding in outcome.findings.iter().filter(|f| f.suppressed_by.is_none()) {
        let entry = counts.entry(finding.rule).or_insert((0, finding.level));
        entry.0 += 1;
        entry.1 = entry.1.max(finding.level);
    }
    let mut rows: Vec<(&str, (usize, Level))> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    let mut text = String::from("\nFindings by rule (suppressed ones not counted):\n");
    for (rule, (count, level)) in &rows {
        text.push_str(&format!("{count:6}  {:7}  {rule}\n", level.as_str()));
    }
    let total: usize = rows.iter().map(|(_, (count, _))| count).sum();
    text.push_str(&format!("{total:6}  total\n"));
    text
}

/// Runs a check as the command line describes and returns the exit status.
pub fn run(mut args: Args) -> u8 {
    if let Some(command) = args.command.take() {
        return run_command(command);
    }
    let stdin = if args.paths.iter().any(|p| p.as_os_str() == "-") {
        let mut text = Vec::new();
        if let Err(e) = std::io::stdin().lock().read_to_end(&mut text) {
            eprintln!("mplint: cannot read standard input: {e}");
            return EXIT_ERROR;
        }
        let name = args.stdin_filename.clone().unwrap_or_else(|| PathBuf::from("stdin.pp"));
        for path in args.paths.iter_mut().filter(|p| p.as_os_str() == "-") {
            *path = name.clone();
        }
        Some((name, text))
    } else {
        if args.stdin_filename.is_some() {
            eprintln!("mplint: --stdin-filename names what `-` (standard input) stands for, but no `-` was given");
            return EXIT_ERROR;
        }
        None
    };
    if let Some(hint) = subcommand_hint(&args.paths) {
        eprintln!("mplint: {hint}");
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    // Read the baseline first: a broken one should not cost a whole check.
    let baseline = match args.baseline.as_deref().map(|file| Baseline::read(file, &cwd)).transpose() {
        Ok(baseline) => baseline,
        Err(message) => {
            eprintln!("mplint: {message}");
            return EXIT_ERROR;
        }
    };
    let settings = match settings(&args) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("mplint: {message}");
            return EXIT_ERROR;
        }
    };
    let fail_on = settings.fail_on;
    let constraints = settings.constraints.clone();
    let options = CheckOptions {
        jobs: args.jobs.map(usize::from),
        excludes: args.exclude.clone(),
        module_path: args.module_path.clone(),
        settings,
        compile_every_node: false,
        syntax_only: args.syntax_only,
        stdin,
        in_context: !args.isolated,
        cache: if args.no_cache { None } else { ParseCache::in_user_cache() },
    };
    let mut outcome = match check::check(&args.paths, &options) {
        Ok(outcome) => outcome,
        Err(err) => {
            eprintln!("mplint: {err}");
            return EXIT_ERROR;
        }
    };
    if let Some(file) = &args.write_baseline {
        return match baseline::write(&outcome, file, &cwd) {
            Ok(count) => {
                if !args.quiet {
                    eprintln!("mplint: recorded {count} findings in {}", file.display());
                }
                if outcome.notices.iter().any(|n| n.named) {
                    EXIT_ERROR
                } else {
                    EXIT_CLEAN
                }
            }
            Err(message) => {
                eprintln!("mplint: {message}");
                EXIT_ERROR
            }
        };
    }
    let applied = baseline.map(|b| b.apply(&mut outcome, &cwd));
    let base_dir = cwd;
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
        fail_on,
        quiet: args.quiet,
        constraints: &constraints,
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
    if args.statistics {
        let table = statistics(&outcome);
        if args.format == Format::Human && args.output.is_none() {
            print!("{table}");
        } else {
            eprint!("{table}");
        }
    }
    if let (Some(applied), false) = (applied, args.quiet) {
        let file = args.baseline.as_deref().unwrap_or(std::path::Path::new("")).display();
        eprintln!(
            "mplint: {} held back by the baseline {file}; {} of its findings are gone{}",
            plural(applied.baselined, "finding"),
            applied.gone,
            if applied.gone > 0 { " (fixed: write it again with --write-baseline to drop them)" } else { "" }
        );
    }
    let status = if outcome.notices.iter().any(|n| n.named) {
        EXIT_ERROR
    } else if outcome.fails(fail_on) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    };
    // The process ends now: freeing every file's syntax tree one node at a
    // time would only delay that.
    std::mem::forget(outcome);
    status
}
