//! `cute`: argv → REPL / scripts / `-e` / doctests / `bench`; the colour policy; exit codes.
//! Nothing else. May import: `session`, `repl`, `bench`, `diagnostic` (to show unreadable inputs),
//! `decode`, `source` (a script's text).

use clap::{Parser, ValueEnum};
use cute::diagnostic::Diagnostic;
use cute::parser::ast::Span;
use cute::repl::doctest;
use cute::session::{Options, Outcome, Session};
use cute::source::Text;
use std::io::{IsTerminal, Read, Write};

// Small blocks from per-thread stacks of free blocks (see `cute::heap`): a statement
// allocates dozens.
#[global_allocator]
static ALLOC: cute::heap::SmallBlocks = cute::heap::SmallBlocks;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// `--version`: the package's, and which build this is when it is not the ordinary one
/// (`scripts/pgo.sh` sets `CUTE_PGO` for its builds): benchmark figures depend on it.
const VERSION: &str = match option_env!("CUTE_PGO") {
    Some(_) => concat!(env!("CARGO_PKG_VERSION"), " (profile-guided build)"),
    None => env!("CARGO_PKG_VERSION"),
};

/// CuTe's layout algebra as a calculator: evaluates layouts, compositions, divides, products,
/// swizzles... and prints exactly what CuTe C++ prints.
#[derive(Parser, Debug)]
#[command(
    name = "cute",
    version = VERSION,
    after_help = "Examples:
  cute                                   interactive REPL (on a terminal)
  cute -e 'coalesce((_2,(_1,_6)):(_1,(_6,_2)))'
  cute scripts/tour.cute                 run a script; asserts are checked
  cute --echo scripts/tour.cute          the same, each statement shown before its value
  cute --keep-going a.cute b.cute        run everything, end with 'N passed, M failed'
  cute --doctest README.md               check the ```cute blocks of Markdown files
  nvcc kernel.cu 2>&1 | cute --decode    CuTe types in compiler messages as notation
  cute bench FILE...                     engine and whole-session statements/s per script

Environment:
  NO_COLOR           no colour (as --color never) when set and not empty
  CUTE_PRINT_LIMIT   most cells print_layout/print_latex/print_svg draw (default 1048576)
  CUTE_MAX_LEAVES    most integers one value may hold (default 256)
  XDG_STATE_HOME     the REPL keeps its history in $XDG_STATE_HOME/cute/history

Exit status: 0 success; 1 a failed assert or an evaluation error; 2 a parse error or bad usage."
)]
struct Cli {
    /// Scripts to run in order (`-` reads standard input); with --doctest, Markdown files
    #[arg(value_name = "FILE")]
    files: Vec<std::path::PathBuf>,
    /// Evaluate STATEMENTS like a script (repeatable; runs before FILEs)
    #[arg(short = 'e', long = "eval", value_name = "STATEMENTS", allow_hyphen_values = true)]
    eval: Vec<String>,
    /// Run everything despite failures and end with a line `N passed, M failed`
    #[arg(short = 'k', long)]
    keep_going: bool,
    /// Print each statement before its value (`stmt  =>  value`), and the script's comments
    #[arg(long)]
    echo: bool,
    /// When to colour the output
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    color: ColorWhen,
    /// Check the ```cute examples of Markdown FILEs (inputs after `cute> `, then expected output)
    #[arg(long)]
    doctest: bool,
    /// Copy FILEs (or standard input) to standard output with every CuTe type rewritten into
    /// the notation (`cute::Layout<cute::tuple<cute::C<8>, int>, ...>` -> `(_8,?):...`)
    #[arg(long)]
    decode: bool,
    /// Stop a statement that runs longer than SECONDS with an error (0: no limit)
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    time_limit: cute::session::TimeLimit,
    /// Print the README's table of functions (Markdown) from the registry
    #[arg(long, hide = true)]
    function_table: bool,
}

/// The width of the terminal stdout is: `COLUMNS` when set, else the terminal's own (Linux and
/// macOS `TIOCGWINSZ`), else 80.
fn terminal_width() -> Option<usize> {
    if let Some(c) = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok()).filter(|&c| c > 0) {
        return Some(c);
    }
    #[cfg(any(target_os = "linux", target_os = "macos"))]
    {
        #[repr(C)]
        struct WinSize {
            rows: u16,
            cols: u16,
            xpixel: u16,
            ypixel: u16,
        }
        extern "C" {
            fn ioctl(fd: i32, request: std::ffi::c_ulong, ...) -> i32;
        }
        #[cfg(target_os = "linux")]
        const TIOCGWINSZ: std::ffi::c_ulong = 0x5413;
        #[cfg(target_os = "macos")]
        const TIOCGWINSZ: std::ffi::c_ulong = 0x4008_7468;
        let mut ws = WinSize { rows: 0, cols: 0, xpixel: 0, ypixel: 0 };
        // SAFETY: TIOCGWINSZ writes one `struct winsize` (four u16) through the pointer.
        if unsafe { ioctl(1, TIOCGWINSZ, &mut ws as *mut WinSize) } == 0 && ws.cols > 0 {
            return Some(ws.cols as usize);
        }
    }
    Some(80)
}

/// `--time-limit`'s value: seconds, 0 for none.
fn seconds(text: &str) -> Result<cute::session::TimeLimit, String> {
    cute::session::parse_time_limit(text).ok_or_else(|| format!("`{text}` is not a number of seconds (0 or more)"))
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
    // No thread is started here: `Session::run` moves deeply nested inputs to a thread with a
    // large stack itself, so that an ordinary `cute -e` costs one process and nothing more.
    std::process::exit(real_main())
}

fn real_main() -> i32 {
    // `cute bench FILE...`: the benchmark (see `cute bench --help`).
    if std::env::args_os().nth(1).is_some_and(|a| a == "bench") {
        let rest: Vec<String> = std::env::args_os().skip(2).map(|a| a.to_string_lossy().into_owned()).collect();
        return cute::bench::main(&rest);
    }
    let cli = Cli::parse();
    let opts = Options {
        keep_going: cli.keep_going,
        color_values: color_enabled(cli.color, std::io::stdout().is_terminal()),
        color_diagnostics: color_enabled(cli.color, std::io::stderr().is_terminal()),
        repl: false,
        interactive: false,
        echo: cli.echo,
        no_file_writes: false,
        terminal_width: if std::io::stdout().is_terminal() { terminal_width() } else { None },
        truecolor: std::env::var("COLORTERM").is_ok_and(|v| v == "truecolor" || v == "24bit"),
        time_limit: cli.time_limit,
        forget_inputs: false,
    };
    if !opts.color_values && !opts.color_diagnostics {
        colored::control::set_override(false);
    }
    if cli.function_table {
        print!("{}", cute::repl::function_table());
        return 0;
    }
    if cli.decode {
        return run_decode(&cli.files);
    }
    if cli.doctest {
        return run_doctests(&cli.files, cli.eval.is_empty(), opts.color_diagnostics);
    }
    if cli.files.is_empty() && cli.eval.is_empty() {
        if std::io::stdin().is_terminal() {
            return cute::repl::run(opts);
        }
        return run_piped(opts);
    }
    run_inputs(&cli.eval, &cli.files, opts)
}

/// `--decode`: the files (standard input if none, or `-`) with their CuTe types rewritten.
fn run_decode(files: &[std::path::PathBuf]) -> i32 {
    let stdin = [std::path::PathBuf::from("-")];
    let mut out = std::io::stdout().lock();
    for f in if files.is_empty() { &stdin[..] } else { files } {
        let mut bytes = Vec::new();
        let read = if f.as_os_str() == "-" {
            std::io::stdin().read_to_end(&mut bytes).map(|_| ())
        } else {
            std::fs::read(f).map(|b| bytes = b)
        };
        if let Err(e) = read {
            eprintln!("error: cannot read {}: {e}", f.display());
            return 2;
        }
        if out.write_all(cute::decode::decode(&String::from_utf8_lossy(&bytes)).as_bytes()).is_err() {
            return 0; // a closed pipe
        }
    }
    0
}

/// Run `-e` strings, then files, in one session. Stops at the first failure unless
/// `keep_going`.
fn run_inputs(evals: &[String], files: &[std::path::PathBuf], opts: Options) -> i32 {
    // (nothing here saves the inputs)
    let opts = Options { forget_inputs: true, ..opts };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = std::io::stderr();
    let mut session = Session::new(opts);
    let mut worst = Outcome::Ok;
    let mut stdin_used = false;
    let mut sources: Vec<(String, Option<String>, Option<&std::path::Path>)> = Vec::new();
    for e in evals {
        sources.push(("-e".to_string(), Some(e.clone()), None));
    }
    for f in files {
        sources.push((f.display().to_string(), None, Some(f.as_path())));
    }
    for (name, src, path) in sources {
        let (origin, text) = match (src, path) {
            (Some(t), _) => (name, Text::Owned(t)),
            (None, Some(p)) if p.as_os_str() == "-" => {
                if stdin_used {
                    continue;
                }
                stdin_used = true;
                match read_source(None, opts.color_diagnostics) {
                    Ok(t) => ("<stdin>".to_string(), t),
                    Err(msg) => {
                        let _ = out.flush();
                        let _ = err.write_all(msg.as_bytes());
                        return 2;
                    }
                }
            }
            (None, p) => match read_source(p, opts.color_diagnostics) {
                Ok(t) => (name, t),
                Err(msg) => {
                    let _ = out.flush();
                    let _ = err.write_all(msg.as_bytes());
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

/// Standard input that is not a terminal (`echo ':help' | cute`, `cute < file`): a script in
/// which lines starting with `:` are the REPL's commands.
fn run_piped(opts: Options) -> i32 {
    let text = match read_source(None, opts.color_diagnostics) {
        Ok(t) => t,
        Err(msg) => {
            let _ = std::io::stderr().write_all(msg.as_bytes());
            return 2;
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = std::io::stderr();
    let mut session = Session::new(opts);
    let r = cute::repl::run_script_with_commands(&text, "<stdin>", &mut session, &mut out, &mut err);
    if opts.keep_going {
        let _ = writeln!(out, "{} passed, {} failed", session.stats.passed, session.stats.failed);
    }
    let _ = out.flush();
    r.exit_code()
}

/// The text of a script (`None`: standard input). On failure, the rendered diagnostic: a file
/// that cannot be read is shown at its place on the command line, a byte that is not UTF-8 at
/// its line and column in the file.
fn read_source(path: Option<&std::path::Path>, color: bool) -> Result<Text, String> {
    let name = path.map_or_else(|| "<stdin>".to_string(), |p| p.display().to_string());
    // (a large file of UTF-8 text is mapped; anything else, and any error, is read as before)
    if let Some(t) = path.and_then(Text::map) {
        return Ok(t);
    }
    let read = match path {
        Some(p) => std::fs::read(p),
        None => {
            let mut b = Vec::new();
            std::io::stdin().read_to_end(&mut b).map(|_| b)
        }
    };
    let bytes = match read {
        Ok(b) => b,
        Err(e) => {
            let what = if path.is_some() { name.clone() } else { "standard input".to_string() };
            return Err(command_line_error(&format!("cannot read {what}: {e}"), path.map(|p| p.as_os_str()), color));
        }
    };
    cute::session::decode_script(bytes, &name, color).map(Text::Owned)
}

/// An error about a command-line argument, with a caret under it in the command line.
fn command_line_error(msg: &str, arg: Option<&std::ffi::OsStr>, color: bool) -> String {
    let args: Vec<String> = std::env::args_os()
        .enumerate()
        .map(|(i, a)| if i == 0 { "cute".to_string() } else { a.to_string_lossy().into_owned() })
        .collect();
    let line = args.join(" ");
    let span = arg.and_then(|a| {
        let a = a.to_string_lossy();
        let mut start = 0;
        for (i, x) in args.iter().enumerate() {
            if i > 0 && *x == a {
                return Some(Span::new(start, start + x.len()));
            }
            start += x.len() + 1;
        }
        None
    });
    Diagnostic::error(msg, span).render("<command line>", &line, color)
}

fn worse(a: Outcome, b: Outcome) -> Outcome {
    if a.exit_code() >= b.exit_code() {
        a
    } else {
        b
    }
}

fn run_doctests(files: &[std::path::PathBuf], no_eval: bool, color: bool) -> i32 {
    let mut out = std::io::stdout().lock();
    if files.is_empty() || !no_eval {
        let _ = writeln!(std::io::stderr(), "error: --doctest takes Markdown files (and no -e)");
        return 2;
    }
    let (mut passed, mut failed) = (0, 0);
    for f in files {
        let md = match read_source(Some(f), color) {
            Ok(t) => t,
            Err(msg) => {
                let _ = out.flush();
                let _ = std::io::stderr().write_all(msg.as_bytes());
                return 2;
            }
        };
        let (p, m) = doctest::check(&f.display().to_string(), &md, &mut out);
        passed += p;
        failed += m;
    }
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    i32::from(failed > 0)
}
