//! What every target does with its input: run it through `cute::session::Session` exactly as
//! the CLI does (values to one writer, diagnostics to another) and check what must hold for
//! any input: no panic (the fuzzer catches it), no parse error for a generated program.
//! Shared with `tests/fuzz_corpus.rs` (included with `#[path]`).
#![allow(dead_code)]

use cute::session::{Options, Outcome, Session};

/// The options the first byte selects (REPL rules, keep going).
fn options(b: u8) -> Options {
    Options { repl: b & 1 != 0, keep_going: b & 2 != 0, no_file_writes: true, ..Options::default() }
}

/// Run `src` in `s`; returns (outcome, stdout, stderr).
pub fn run(s: &mut Session, src: &str) -> (Outcome, String, String) {
    let (mut o, mut e) = (Vec::new(), Vec::new());
    let r = s.run(src, "<fuzz>", &mut o, &mut e);
    (r, String::from_utf8_lossy(&o).into_owned(), String::from_utf8_lossy(&e).into_owned())
}

/// The `session` target: the first byte picks the options, the rest is a script (bytes that
/// are not UTF-8 go through the same decoding as a script file).
pub fn session_bytes(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let text = match cute::session::decode_script(rest.to_vec(), "<fuzz>", false) {
        Ok(t) => t,
        Err(_) => return,
    };
    // the hand-written fast path builds what pest builds, or leaves the statement to pest
    if let Err(e) = cute::parser::fast_path_agrees(&text) {
        panic!("the parser's fast path and pest disagree: {e}");
    }
    // reading a line at a time gives what reading with the pre-pass gives
    if let Err(e) = cute::parser::lazy_agrees(&text, usize::from(first >> 4)) {
        panic!("lazy reading and the pre-pass disagree: {e}");
    }
    // a call of literal arguments read and run from its values is its tree run
    if let Err(e) = cute::interp::literal_calls_agree(&text) {
        panic!("a literal call run from its values and its tree disagree: {e}");
    }
    let mut s = Session::new(options(first));
    run(&mut s, &text);
    // the REPL's help path sees the same words
    if first & 4 != 0 {
        let _ = cute::repl::help_for(text.trim());
    }
}

/// The `structured` target: a generated program must parse; evaluating it may fail, but only
/// with an error.
pub fn structured(src: &str) {
    let mut s = Session::new(Options { keep_going: true, no_file_writes: true, ..Options::default() });
    // The values (pictures of up to 256 MiB each) are not read, only whether the program parsed:
    // kept, a program of several pictures ran into the 1 GiB limit on the harness's own copy.
    let (mut o, mut e) = (std::io::sink(), Vec::new());
    let r = s.run(src, "<fuzz>", &mut o, &mut e);
    assert!(r != Outcome::ParseError, "a generated program did not parse:\n{src}\n{}", String::from_utf8_lossy(&e));
}
