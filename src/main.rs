//! `cute`: argv → REPL / scripts / `-e` / doctests; the colour policy; exit codes. Nothing else.
//! May import: `session`, `repl`.

use clap::{Parser, ValueEnum};
use cute::repl::doctest;
use cute::session::{Options, Outcome, Session};
use std::io::{IsTerminal, Read, Write};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// CuTe's layout algebra as a calculator: evaluates layouts, compositions, divides, products,
/// swizzles... and prints exactly what CuTe C++ prints.
#[derive(Parser, Debug)]
#[command(
    name = "cute",
    version,
    after_help = "Examples:
  cute                                   interactive REPL (on a terminal)
  cute -e 'coalesce((_2,(_1,_6)):(_1,(_6,_2)))'
  cute scripts/tour.cute                 run a script; asserts are checked
  cute --keep-going a.cute b.cute        run everything, end with 'N passed, M failed'
  cute --doctest README.md               check the ```cute blocks of Markdown files

Exit status: 0 success; 1 a failed assert or an evaluation error; 2 a parse error or bad usage."
)]
struct Cli {
    /// Scripts to run in order (`-` reads standard input); with --doctest, Markdown files
    #[arg(value_name = "FILE")]
    files: Vec<String>,
    /// Evaluate STATEMENTS like a script (repeatable; runs before FILEs)
    #[arg(short = 'e', long = "eval", value_name = "STATEMENTS", allow_hyphen_values = true)]
    eval: Vec<String>,
    /// Run everything despite failures and end with a line `N passed, M failed`
    #[arg(short = 'k', long)]
    keep_going: bool,
    /// When to colour the output
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    color: ColorWhen,
    /// Check the ```cute examples of Markdown FILEs (inputs after `cute> `, then expected output)
    #[arg(long)]
    doctest: bool,
    /// Print the README's table of functions (Markdown) from the registry
    #[arg(long, hide = true)]
    function_table: bool,
}

/// Colour only on a terminal, without a non-empty NO_COLOR and not with TERM=dumb, unless forced.
fn color_enabled(when: ColorWhen, terminal: bool) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => {
            terminal
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    }
}

fn main() {
    // The evaluator recurses on the parsed expression (depth-limited by the parser) and the
    // algebra on nested tuples: give it room, so deep inputs never overflow the stack.
    let code = std::thread::Builder::new()
        .name("cute".into())
        .stack_size(256 << 20)
        .spawn(real_main)
        .ok()
        .and_then(|h| h.join().ok())
        .unwrap_or(101);
    std::process::exit(code)
}

fn real_main() -> i32 {
    let cli = Cli::parse();
    let opts = Options {
        keep_going: cli.keep_going,
        color_values: color_enabled(cli.color, std::io::stdout().is_terminal()),
        color_diagnostics: color_enabled(cli.color, std::io::stderr().is_terminal()),
        repl: false,
    };
    if !opts.color_values && !opts.color_diagnostics {
        colored::control::set_override(false);
    }
    if cli.function_table {
        print!("{}", cute::repl::function_table());
        return 0;
    }
    if cli.doctest {
        return run_doctests(&cli.files, cli.eval.is_empty());
    }
    if cli.files.is_empty() && cli.eval.is_empty() {
        if std::io::stdin().is_terminal() {
            return cute::repl::run(opts);
        }
        return run_inputs(&[], &["-".to_string()], opts);
    }
    run_inputs(&cli.eval, &cli.files, opts)
}

/// Run `-e` strings, then files, in one session. Stops at the first failure unless
/// `keep_going`.
fn run_inputs(evals: &[String], files: &[String], opts: Options) -> i32 {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = std::io::stderr();
    let mut session = Session::new(opts);
    let mut worst = Outcome::Ok;
    let mut stdin_used = false;
    let mut sources: Vec<(String, Result<String, String>)> = Vec::new();
    for e in evals {
        sources.push(("-e".to_string(), Ok(e.clone())));
    }
    for f in files {
        sources.push((f.clone(), Err(String::new())));
    }
    for (name, src) in sources {
        let (origin, text) = match src {
            Ok(t) => (name, t),
            Err(_) if name == "-" => {
                if stdin_used {
                    continue;
                }
                stdin_used = true;
                let mut t = String::new();
                if let Err(e) = std::io::stdin().read_to_string(&mut t) {
                    let _ = out.flush();
                    let _ = writeln!(err, "error: cannot read standard input: {e}");
                    return 2;
                }
                ("<stdin>".to_string(), t)
            }
            Err(_) => match std::fs::read_to_string(&name) {
                Ok(t) => (name, t),
                Err(e) => {
                    let _ = out.flush();
                    let _ = writeln!(err, "error: cannot read {name}: {e}");
                    return 2;
                }
            },
        };
        let r = session.run(&text, &origin, &mut out, &mut err);
        worst = worse(worst, r);
        if r != Outcome::Ok && !opts.keep_going {
            break;
        }
    }
    if opts.keep_going {
        let _ = writeln!(out, "{} passed, {} failed", session.stats.passed, session.stats.failed);
    }
    let _ = out.flush();
    worst.exit_code()
}

fn worse(a: Outcome, b: Outcome) -> Outcome {
    if a.exit_code() >= b.exit_code() {
        a
    } else {
        b
    }
}

fn run_doctests(files: &[String], no_eval: bool) -> i32 {
    let mut out = std::io::stdout().lock();
    if files.is_empty() || !no_eval {
        let _ = writeln!(std::io::stderr(), "error: --doctest takes Markdown files (and no -e)");
        return 2;
    }
    let (mut passed, mut failed) = (0, 0);
    for f in files {
        let md = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "error: cannot read {f}: {e}");
                return 2;
            }
        };
        let (p, m) = doctest::check(f, &md, &mut out);
        passed += p;
        failed += m;
    }
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    i32::from(failed > 0)
}
