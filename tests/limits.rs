//! The limits that keep a session alive (README "Limits"), each hit by an input that gives its
//! error quickly: the time limit of one statement (`--time-limit`, `:time-limit`), and the memory
//! one value may take (the integers and nesting a value may hold). The recursion limits are in
//! `tests/fuzz_corpus.rs` (`deep_inputs`), the size limits' messages in `tests/hostile.rs`.

use cute::session::{parse_time_limit, Options, Outcome, Session, TimeLimit};
use std::alloc::{GlobalAlloc, Layout, System};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Counts the bytes allocated (to measure what one value takes).
struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(l.size(), Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A layout of size 2^24 (every index of it is visited by `equivalent`).
const BIG: &str = "A = (2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):\
                   (1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,\
                   131072,262144,524288,1048576,2097152,4194304,8388608)";

/// One statement that costs about 40 `equivalent`s over 2^24 indices (many seconds).
fn slow_statement() -> String {
    format!("({}1)", "equivalent(A, A), ".repeat(40))
}

fn run(s: &mut Session, src: &str) -> (Outcome, String, String) {
    let (mut o, mut e) = (Vec::new(), Vec::new());
    let r = s.run(src, "<test>", &mut o, &mut e);
    (r, String::from_utf8_lossy(&o).into_owned(), String::from_utf8_lossy(&e).into_owned())
}

#[test]
fn a_slow_statement_stops_at_the_time_limit() {
    let out = Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(["--time-limit", "0.2", "-e", BIG, "-e", &slow_statement()])
        .output()
        .expect("run cute");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: time limit: the statement ran longer than 0.2 s"), "{err}");
    assert!(err.contains("--time-limit SECONDS") && err.contains(":time-limit SECONDS"), "{err}");
    assert!(err.contains(" --> -e:1:"), "the error has its place: {err}");
}

#[test]
fn the_time_limit_is_per_statement_and_a_session_option() {
    let mut s = Session::new(Options { time_limit: TimeLimit(Some(Duration::from_millis(50))), ..Options::default() });
    assert_eq!(run(&mut s, BIG).0, Outcome::Ok);
    let t = Instant::now();
    let (r, _, e) = run(&mut s, &slow_statement());
    assert_eq!(r, Outcome::Failed, "{e}");
    assert!(e.contains("time limit"), "{e}");
    // about 50 ms (seconds on a very busy machine), not the statement's many seconds
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
    // the next statement has its own clock
    let (r, o, e) = run(&mut s, "size(A)");
    assert_eq!((r, o.as_str()), (Outcome::Ok, "16777216\n"), "{e}");
}

#[test]
fn the_default_time_limit_is_ten_seconds() {
    assert_eq!(Options::default().time_limit, TimeLimit(Some(Duration::from_secs(10))));
    assert_eq!(parse_time_limit("0"), Some(TimeLimit(None)));
    assert_eq!(parse_time_limit("1.5"), Some(TimeLimit(Some(Duration::from_millis(1500)))));
    assert_eq!(parse_time_limit("-1"), None);
    assert_eq!(parse_time_limit("soon"), None);
    let out = Command::new(env!("CARGO_BIN_EXE_cute")).args(["--time-limit", "soon", "-e", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a number of seconds"));
}

#[test]
fn the_repl_sets_the_time_limit() {
    let mut s = Session::new(Options { repl: true, ..Options::default() });
    let cmd = |s: &mut Session, line: &str| {
        let (mut o, mut e) = (Vec::new(), Vec::new());
        cute::repl::command(line, s, &mut o, &mut e);
        (String::from_utf8_lossy(&o).into_owned(), String::from_utf8_lossy(&e).into_owned())
    };
    assert_eq!(cmd(&mut s, ":time-limit").0, "time limit of one statement: 10 s\n");
    assert_eq!(cmd(&mut s, ":time-limit 0.05"), (String::new(), String::new()));
    assert_eq!(cmd(&mut s, ":time-limit").0, "time limit of one statement: 0.05 s\n");
    assert!(cmd(&mut s, ":time-limit never").1.contains("takes seconds"));
    run(&mut s, BIG);
    let (r, _, e) = run(&mut s, &slow_statement());
    assert_eq!(r, Outcome::Failed);
    assert!(e.contains("ran longer than 0.05 s"), "{e}");
    cmd(&mut s, ":time-limit 0");
    assert_eq!(cmd(&mut s, ":time-limit").0, "time limit of one statement: none\n");
}

/// Bytes allocated by a clone of the value bound to `name`: what the value takes.
fn bytes_of(s: &Session, name: &str) -> usize {
    let v = s.interp().get(name).expect("bound");
    let before = ALLOCATED.load(Ordering::Relaxed);
    let copy = v.clone();
    let after = ALLOCATED.load(Ordering::Relaxed);
    drop(copy);
    after - before
}

/// The memory of one value is bounded by the integers it may hold (256, `CUTE_MAX_LEAVES`) and
/// its nesting (256 levels): the widest and the deepest values take a few KiB each; one more
/// integer or level is an error naming the limit.
#[test]
fn memory_per_value_is_bounded() {
    const BOUND: usize = 64 << 10; // README "Limits"
    let mut s = Session::new(Options::default());
    let ones = vec!["1"; 128].join(",");
    let wide = format!("W = ({ones}):({ones})");
    let deep = format!("D = {}1{}", "(".repeat(255), ")".repeat(255));
    let tile = format!("T = <{}>", vec!["(2,3):(4,5)"; 64].join(", "));
    for src in [&wide, &deep, &tile] {
        let (r, _, e) = run(&mut s, src);
        assert_eq!(r, Outcome::Ok, "{e}");
    }
    for name in ["W", "D", "T"] {
        let b = bytes_of(&s, name);
        eprintln!("{name}: {b} bytes");
        assert!(b < BOUND, "{name} takes {b} bytes");
    }
    // one more integer, one more level: refused with the limit's name
    let (r, _, e) = run(&mut s, "(W, 1)");
    assert_eq!(r, Outcome::Failed);
    assert!(e.contains("more than 256 integers") && e.contains("CUTE_MAX_LEAVES"), "{e}");
    let (r, _, e) = run(&mut s, &format!("{}1{}", "(".repeat(300), ")".repeat(300)));
    assert_ne!(r, Outcome::Ok);
    assert!(e.starts_with("error: "), "{e}");
}
