//! `cute bench [--reps N] FILE...`: throughput of the engine on benchmark scripts (one call per
//! line, as in `../shared/bench/`), measured in this process:
//! * engine: each call's arguments are evaluated once, then only the built-in is timed
//!   (`builtins::call`, law checks and warnings included), over all the file's calls;
//! * session: the whole file through `Session::run` (parse, evaluate, print to memory);
//! * parse and print alone, and what is left per statement: the interpreter's overhead.
//!
//! Each figure is the median of N repetitions; the engine's come after untimed warm-up passes
//! (at least 3, up to 50 ms). `scripts/bench_vs_pycute.py` runs this next to
//! pycute and prints the ratio table of BENCHMARKS.md.
//! May import: `session`, `interp`, `registry`, `parser`, `eval` (a measuring tool at the
//! session's level).

use crate::eval::error::take_warnings;
use crate::eval::value::Value;
use crate::interp::Interp;
use crate::parser::ast::{ExprKind, StmtKind};
use crate::registry::{self as builtins, TArg};
use crate::session::{Options, Session};
use std::time::Instant;

/// The figures for one file (times in nanoseconds per statement).
#[derive(Clone, Debug)]
pub struct FileReport {
    pub name: String,
    /// Statements in the file.
    pub statements: usize,
    /// Calls timed engine-only (statements `f(literal args)`).
    pub calls: usize,
    pub engine_ns: f64,
    pub session_ns: f64,
    pub parse_ns: f64,
    pub print_ns: f64,
}

impl FileReport {
    /// Session time not spent parsing, in the built-ins or printing.
    pub fn overhead_ns(&self) -> f64 {
        (self.session_ns - self.parse_ns - self.engine_ns - self.print_ns).max(0.0)
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Untimed passes over the calls before the timed ones: at least the first number, then more
/// until [`WARM_MS`] have passed or the second number is reached.
const WARM_PASSES: (usize, usize) = (3, 50);
/// The warm-up's length in milliseconds (see [`WARM_PASSES`]).
const WARM_MS: u128 = 50;

/// Measure one script (`name` for the report).
pub fn measure(name: &str, source: &str, reps: usize) -> Result<FileReport, String> {
    let reps = reps.max(1);
    let program = crate::parser::parse(source).map_err(|e| format!("{name}: {}", e.message))?;
    let statements = program.stmts.len().max(1);
    // The calls, their arguments evaluated once.
    let interp = Interp::new();
    // (each function looked up once, as the pycute side looks its functions up before timing)
    let mut calls: Vec<(builtins::Slot, Vec<TArg>, Vec<Value>)> = Vec::new();
    for s in &program.stmts {
        if let StmtKind::Expr(e) = &s.kind {
            if let ExprKind::Call(c) = &e.kind {
                let (name, targs, args) = (&c.name, &c.targs, &c.args);
                if let Some(slot) = builtins::get(name) {
                    let vals: Result<Vec<Value>, _> = args.iter().map(|a| interp.eval(a)).collect();
                    if let Ok(vals) = vals {
                        calls.push((slot, targs.clone(), vals));
                    }
                }
            }
        }
    }
    let ncalls = calls.len().max(1);
    let mut results = Vec::with_capacity(calls.len());
    // Warm-up passes, not timed: the first pass over a file writes memory the process has not
    // touched yet (2-2.5x slower than the fifth on this machine), and the next two still ran
    // 10-30% slow (BENCHMARKS.md, twenty-fifth session). The figure is the engine's steady
    // speed, as pycute's is taken from rounds after its first.
    let warm = Instant::now();
    for k in 0.. {
        if k >= WARM_PASSES.0 && (k >= WARM_PASSES.1 || warm.elapsed().as_millis() >= WARM_MS) {
            break;
        }
        results.clear();
        engine_pass(&calls, &mut results);
    }
    let engine: Vec<f64> = (0..reps)
        .map(|_| {
            results.clear();
            let t = Instant::now();
            engine_pass(&calls, &mut results);
            t.elapsed().as_nanos() as f64 / ncalls as f64
        })
        .collect();
    let print: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            let mut n = 0;
            for v in results.iter().flatten() {
                n += v.to_string().len();
            }
            std::hint::black_box(n);
            t.elapsed().as_nanos() as f64 / ncalls as f64
        })
        .collect();
    let parse: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            let p = crate::parser::parse(source);
            std::hint::black_box(&p);
            t.elapsed().as_nanos() as f64 / statements as f64
        })
        .collect();
    let session: Vec<f64> = (0..reps)
        .map(|_| {
            let mut s = Session::new(Options { keep_going: true, forget_inputs: true, ..Options::default() });
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let t = Instant::now();
            s.run(source, name, &mut out, &mut err);
            t.elapsed().as_nanos() as f64 / statements as f64
        })
        .collect();
    Ok(FileReport {
        name: name.to_string(),
        statements: program.stmts.len(),
        calls: calls.len(),
        engine_ns: median(engine),
        session_ns: median(session),
        parse_ns: median(parse),
        print_ns: median(print),
    })
}

/// The calls, each with its arguments' values, as [`measure`] times them.
type Calls = [(builtins::Slot, Vec<TArg>, Vec<Value>)];

/// The engine's part of [`measure`]: each built-in called on its values (kept out of line:
/// `scripts/instructions.sh` counts the instructions inside it).
#[inline(never)]
fn engine_pass(calls: &Calls, results: &mut Vec<Result<Value, crate::eval::error::EvalError>>) {
    for (slot, targs, args) in calls {
        results.push(builtins::call_slot_values(*slot, targs, args));
        let _ = take_warnings();
    }
}

/// The report table (one line per file; ops/s = statements per second).
pub fn table(rows: &[FileReport]) -> String {
    let mut s = format!(
        "{:<22} {:>7} {:>13} {:>13} {:>10} {:>10} {:>10}\n",
        "file", "calls", "engine op/s", "session op/s", "parse ns", "print ns", "interp ns"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<22} {:>7} {:>13.0} {:>13.0} {:>10.0} {:>10.0} {:>10.0}\n",
            r.name,
            r.calls,
            1e9 / r.engine_ns.max(1e-3),
            1e9 / r.session_ns.max(1e-3),
            r.parse_ns,
            r.print_ns,
            r.overhead_ns()
        ));
    }
    s
}

/// `cute bench` with its arguments (after `bench`): the exit code.
pub fn main(args: &[String]) -> i32 {
    let mut reps = 5;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--reps" => match it.next().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n > 0 => reps = n,
                _ => {
                    eprintln!("error: --reps takes a positive number");
                    return 2;
                }
            },
            "-h" | "--help" => {
                println!("usage: cute bench [--reps N] FILE...\n\nFor each script: engine-only and whole-session statements per second, parse and print time per statement, and the interpreter's overhead per statement (medians of N runs, default 5).");
                return 0;
            }
            f => files.push(f.to_string()),
        }
    }
    if files.is_empty() {
        eprintln!("error: cute bench needs at least one FILE (try `cute bench --help`)");
        return 2;
    }
    let mut rows = Vec::new();
    for f in &files {
        let src = match std::fs::read_to_string(f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: cannot read {f}: {e}");
                return 2;
            }
        };
        let name = std::path::Path::new(f).file_name().map_or(f.clone(), |n| n.to_string_lossy().into_owned());
        match measure(&name, &src, reps) {
            Ok(r) => rows.push(r),
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    }
    print!("{}", table(&rows));
    0
}
