//! The driver: runs inputs in a worker process under a CPU-time budget and a
//! memory bound, both scaled by the input's size, and tells failures apart.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::input::{Input, Target};

/// What an input may cost, as a fixed part plus a part per byte.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub cpu_base: Duration,
    pub cpu_per_kb: Duration,
    pub memory_base_kb: u64,
    /// Bytes of memory per byte of input.
    pub memory_per_byte: u64,
}

impl Limits {
    pub fn for_target(target: Target) -> Limits {
        // Above twice mplint's parse budget (the parse, then the search for
        // the first error when the parse runs out), which the parse of a
        // file full of errors may well use.
        let (cpu_base, cpu_per_kb) = match target {
            Target::Parse => (Duration::from_secs(3), Duration::from_millis(50)),
            Target::Check => (Duration::from_secs(4), Duration::from_millis(60)),
        };
        Limits {
            cpu_base,
            cpu_per_kb,
            memory_base_kb: mplint::MEMORY_BASE_KB,
            memory_per_byte: mplint::MEMORY_PER_BYTE,
        }
    }

    pub fn cpu(&self, size: usize) -> Duration {
        self.cpu_base + self.cpu_per_kb * (size / 1024) as u32
    }

    pub fn memory_kb(&self, size: usize) -> u64 {
        self.memory_base_kb + self.memory_per_byte * size as u64 / 1024
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Ok {
        peak_kb: u64,
        features: Vec<u64>,
    },
    /// A failure and its signature: what tells it apart from others.
    Failed {
        signature: String,
        detail: String,
    },
}

pub struct Worker {
    target: Target,
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<String>,
    stderr: Arc<Mutex<Vec<String>>>,
    stderr_reader: Option<JoinHandle<()>>,
}

impl Worker {
    pub fn spawn(target: Target) -> Worker {
        let exe = std::env::current_exe().expect("the fuzzer knows its own path");
        let mut child = Command::new(exe)
            .args(["worker", target.name()])
            .env("RUST_BACKTRACE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start a worker process");
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let (send, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let lines = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines() {
                let Ok(line) = line else { break };
                let mut lines = lines.lock().unwrap();
                if lines.len() < 200 {
                    lines.push(line);
                }
            }
        });
        Worker { target, child, stdin, replies, stderr, stderr_reader: Some(stderr_reader) }
    }

    /// Runs one input. After a failure the worker is gone: spawn another.
    pub fn run(&mut self, input: &Input, limits: &Limits) -> Outcome {
        self.stderr.lock().unwrap().clear();
        let size = input.size();
        let cpu_budget = limits.cpu(size);
        let memory_kb = limits.memory_kb(size);
        // What the worker holds between inputs is not this input's.
        let hard_memory_kb = memory_kb + resident_kb(self.child.id()) + 256 * 1024;
        let cpu_start = cpu_time(self.child.id());
        let wall_start = Instant::now();
        if input.write_to(&mut self.stdin).is_err() {
            return self.died();
        }
        loop {
            match self.replies.recv_timeout(Duration::from_millis(5)) {
                Ok(line) => return self.reply(&line, memory_kb, size),
                Err(RecvTimeoutError::Disconnected) => return self.died(),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let pid = self.child.id();
            let resident = resident_kb(pid);
            if resident > hard_memory_kb {
                self.kill();
                return Outcome::Failed {
                    signature: format!("{}: memory blow-up", self.target.name()),
                    detail: format!("resident {resident} KB while the bound for {size} bytes is {memory_kb} KB"),
                };
            }
            let cpu = cpu_time(pid).saturating_sub(cpu_start);
            // Wall time too, for a worker that waits rather than computes,
            // with room for a loaded machine where a niced worker may get
            // no CPU for a minute.
            if cpu > cpu_budget || wall_start.elapsed() > cpu_budget * 20 + Duration::from_secs(300) {
                self.kill();
                return Outcome::Failed {
                    signature: format!("{}: timeout", self.target.name()),
                    detail: format!(
                        "{:.1} s of CPU ({:.1} s wall) for {size} bytes; the budget is {:.1} s",
                        cpu.as_secs_f64(),
                        wall_start.elapsed().as_secs_f64(),
                        cpu_budget.as_secs_f64()
                    ),
                };
            }
        }
    }

    fn reply(&mut self, line: &str, memory_kb: u64, size: usize) -> Outcome {
        let mut words = line.split_whitespace();
        if words.next() != Some("ok") {
            return Outcome::Failed { signature: format!("{}: bad reply", self.target.name()), detail: line.into() };
        }
        let peak_kb: u64 = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
        let features = words.filter_map(|w| u64::from_str_radix(w, 16).ok()).collect();
        if peak_kb > memory_kb {
            return Outcome::Failed {
                signature: format!("{}: memory beyond the bound", self.target.name()),
                detail: format!("peak {peak_kb} KB above the start for {size} bytes; the bound is {memory_kb} KB"),
            };
        }
        Outcome::Ok { peak_kb, features }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The worker ended: a panic, an abort, a signal.
    fn died(&mut self) -> Outcome {
        let status = self.child.wait();
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        let stderr = self.stderr.lock().unwrap().clone();
        let status = match status {
            Ok(status) => status,
            Err(e) => {
                return Outcome::Failed { signature: format!("{}: lost", self.target.name()), detail: e.to_string() }
            }
        };
        let how = {
            use std::os::unix::process::ExitStatusExt;
            match (status.code(), status.signal()) {
                (_, Some(signal)) => format!("signal {signal}"),
                (Some(code), _) => format!("exit {code}"),
                _ => "ended".into(),
            }
        };
        let signature = match stderr.iter().find_map(|l| panic_location(l)) {
            Some(at) => format!("{}: panic at {at}", self.target.name()),
            None => {
                let first = stderr.iter().find(|l| !l.trim().is_empty()).map(|l| without_digits(l));
                match first {
                    Some(line) => format!("{}: {how}: {line}", self.target.name()),
                    None => format!("{}: {how}", self.target.name()),
                }
            }
        };
        Outcome::Failed { signature, detail: format!("{how}\n{}", stderr.join("\n")) }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `src/x.rs:12` from "thread '…' panicked at src/x.rs:12:5:".
fn panic_location(line: &str) -> Option<String> {
    let rest = line.split_once("panicked at ")?.1;
    let rest = rest.trim_end_matches(':');
    let mut parts = rest.rsplitn(3, ':');
    let _column = parts.next()?;
    let line_number = parts.next()?;
    let file = parts.next()?;
    Some(format!("{file}:{line_number}"))
}

fn without_digits(line: &str) -> String {
    let mut out = String::new();
    for c in line.chars().take(120) {
        if c.is_ascii_digit() {
            if !out.ends_with('N') {
                out.push('N');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// User and system time of a process so far.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the line; the name, field 2, is cut off above.
    let ticks: u64 = [11, 12].iter().filter_map(|&i| fields.get(i)?.parse::<u64>().ok()).sum();
    Duration::from_millis(ticks * 1000 / clock_ticks_per_second())
}

fn clock_ticks_per_second() -> u64 {
    // Linux reports times in USER_HZ, 100 on every architecture it supports.
    100
}

fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
