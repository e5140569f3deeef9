//! The real REPL in a pseudo-terminal (expectrl): completion, multi-line entries, history across
//! restarts, no colour under NO_COLOR, Ctrl-C, Ctrl-D. Each test uses its own temporary HOME
//! and XDG_STATE_HOME.
#![cfg(unix)]

use expectrl::{ControlCode, Eof, Session, WaitStatus};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn temp_home() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!("cute-repl-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp home");
    d
}

/// Start `cute` on a pty with `home` as HOME and `home/state` as XDG_STATE_HOME.
fn start(home: &PathBuf, no_color: bool) -> Session {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cute"));
    c.env("HOME", home).env("XDG_STATE_HOME", home.join("state")).env("TERM", "xterm-256color");
    c.env_remove("CLICOLOR_FORCE");
    if no_color {
        c.env("NO_COLOR", "1");
    } else {
        c.env_remove("NO_COLOR");
    }
    let mut s = Session::spawn(c).expect("spawn cute in a pty");
    s.set_expect_timeout(Some(Duration::from_secs(10)));
    prompt(&mut s);
    s
}

/// Wait for a fresh prompt: rustyline (15) enables bracketed paste at the start of each
/// `readline`, so `ESC[?2004h` tells a new prompt from a redraw of the current entry (which
/// also shows `cute> `). Keys sent before the new prompt may be lost (rustyline reads them
/// into the previous call's buffer), so every entry waits for it.
fn prompt(s: &mut Session) -> String {
    let mut t = until(s, "\x1b[?2004h");
    t.push_str(&until(s, "cute> "));
    t
}

/// Output up to and including `needle` (escape codes included).
fn until(s: &mut Session, needle: &str) -> String {
    let c = match s.expect(needle) {
        Ok(c) => c,
        Err(e) => {
            let mut buf = vec![0u8; 1 << 16];
            let n = s.try_read(&mut buf).unwrap_or(0);
            panic!("waiting for {needle:?}: {e}; pending output: {:?}", String::from_utf8_lossy(&buf[..n]))
        }
    };
    let mut t = String::from_utf8_lossy(c.before()).into_owned();
    t.push_str(needle);
    t
}

fn exit_with_ctrl_d(mut s: Session) {
    s.send(ControlCode::EndOfTransmission).expect("send Ctrl-D");
    s.expect(Eof).expect("eof after Ctrl-D");
    let pid = s.get_process().pid();
    assert_eq!(s.get_process().wait().expect("wait"), WaitStatus::Exited(pid, 0));
}

/// SGR (colour) escape sequences: `ESC [ ... m`.
fn has_sgr(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == 0x1b && b[i + 1] == b'[' {
            let mut j = i + 2;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b';') {
                j += 1;
            }
            if j < b.len() && b[j] == b'm' {
                return true;
            }
        }
        i += 1;
    }
    false
}

#[test]
fn completes_a_partial_name() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send_line("verylongname = _5").unwrap();
    prompt(&mut s);
    // A bound name ...
    s.send("verylo\t").unwrap();
    s.send_line(" * 2").unwrap();
    until(&mut s, "10");
    prompt(&mut s);
    // ... and a function name from the registry.
    s.send("identi\t").unwrap();
    s.send_line("(8, _8)").unwrap();
    until(&mut s, "_0");
    prompt(&mut s);
    // ... and a command.
    s.send(":va\t").unwrap();
    s.send_line("").unwrap();
    until(&mut s, "verylongname = _5");
    prompt(&mut s);
    exit_with_ctrl_d(s);
}

#[test]
fn open_bracket_continues_on_the_next_line() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send_line("A = (2,").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    s.send_line("4):(1,2)").unwrap();
    prompt(&mut s);
    s.send_line("A").unwrap();
    until(&mut s, "(2,4):(1,2)");
    prompt(&mut s);
    // A trailing backslash continues too.
    s.send_line("3 + \\").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    s.send_line("_4").unwrap();
    until(&mut s, "7");
    prompt(&mut s);
    exit_with_ctrl_d(s);
}

#[test]
fn history_survives_a_restart() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send_line("12345 + 1").unwrap();
    until(&mut s, "12346");
    prompt(&mut s);
    exit_with_ctrl_d(s);
    let hist = home.join("state").join("cute").join("history");
    let text = std::fs::read_to_string(&hist).expect("history file");
    assert!(text.contains("12345 + 1"), "{text}");

    let mut s = start(&home, true);
    s.send("\x1b[A").unwrap(); // Up: the previous session's entry
    std::thread::sleep(Duration::from_millis(200));
    s.send("\r").unwrap();
    until(&mut s, "12346");
    prompt(&mut s);
    exit_with_ctrl_d(s);
}

#[test]
fn no_escape_codes_under_no_color() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send_line("(_2,4):(_1,2)").unwrap();
    let mut out = until(&mut s, "(_2,4):(_1,2)");
    s.send_line("nosuchname").unwrap();
    out.push_str(&until(&mut s, "unknown name"));
    out.push_str(&prompt(&mut s));
    assert!(!has_sgr(&out), "{out:?}");
    exit_with_ctrl_d(s);

    // Without NO_COLOR the same session is coloured (the check above is not vacuous).
    let mut s = start(&home, false);
    s.send_line("(_2,4):(_1,2)").unwrap();
    let out = prompt(&mut s);
    assert!(has_sgr(&out), "{out:?}");
    exit_with_ctrl_d(s);
}

#[test]
fn ctrl_c_cancels_the_entry() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send("123 + ").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    s.send(ControlCode::EndOfText).unwrap(); // Ctrl-C
    prompt(&mut s);
    s.send_line("77").unwrap();
    let out = prompt(&mut s);
    assert!(out.contains("\n77\r\n") && !out.contains("\n200\r\n") && !out.contains("error"), "{out:?}");
    // An error does not end the session either.
    s.send_line("(1,2").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    s.send(ControlCode::EndOfText).unwrap();
    prompt(&mut s);
    s.send_line("nosuch").unwrap();
    until(&mut s, "unknown name");
    prompt(&mut s);
    s.send_line("5").unwrap();
    // Wait for the value *and* the next prompt: `5` alone matches the echo of the input, and a
    // Ctrl-D sent before the next `readline` starts can be lost.
    let out = prompt(&mut s);
    assert!(out.contains("\n5\r\n"), "{out:?}");
    exit_with_ctrl_d(s);
}

#[test]
fn ctrl_d_exits_with_status_0() {
    let home = temp_home();
    let s = start(&home, true);
    exit_with_ctrl_d(s);
}

#[test]
fn commands_help_save_load_quit() {
    let home = temp_home();
    let script = home.join("saved.cute");
    let mut s = start(&home, true);
    s.send_line(":help").unwrap();
    until(&mut s, ":save");
    prompt(&mut s);
    s.send_line(":help identical").unwrap();
    until(&mut s, "identical(a, b)");
    prompt(&mut s);
    s.send_line("B = (3,5)").unwrap();
    prompt(&mut s);
    s.send_line("nosuch").unwrap(); // not accepted: not saved
    prompt(&mut s);
    s.send_line(format!(":save {}", script.display())).unwrap();
    until(&mut s, "saved 1 input");
    prompt(&mut s);
    s.send_line(":reset").unwrap();
    prompt(&mut s);
    s.send_line(":vars").unwrap();
    until(&mut s, "(no bindings)");
    prompt(&mut s);
    s.send_line(format!(":load {}", script.display())).unwrap();
    prompt(&mut s);
    s.send_line("B").unwrap();
    until(&mut s, "(3,5)");
    prompt(&mut s);
    // `_` alone is the last value; `last` names it.
    s.send_line("_").unwrap();
    until(&mut s, "(3,5)");
    prompt(&mut s);
    s.send_line(":quit").unwrap();
    s.expect(Eof).expect("eof after :quit");
    let pid = s.get_process().pid();
    assert_eq!(s.get_process().wait().expect("wait"), WaitStatus::Exited(pid, 0));
    assert_eq!(std::fs::read_to_string(&script).unwrap(), "B = (3,5)\n");
}

#[test]
fn ctrl_c_during_output_keeps_the_session() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send_line("keep = _42").unwrap();
    prompt(&mut s);
    // A long printout (about 13 MB); Ctrl-C while it runs drops the rest of it, not the session.
    s.send_line("print_latex((_1024,_1024):(_1,_1024))").unwrap();
    until(&mut s, "\\node");
    s.send(ControlCode::EndOfText).unwrap();
    prompt(&mut s);
    s.send_line("keep + 1").unwrap();
    until(&mut s, "43");
    prompt(&mut s);
    exit_with_ctrl_d(s);
}

#[test]
fn deep_entries_and_saving_the_last_value() {
    let home = temp_home();
    let script = home.join("deep.cute");
    let mut s = start(&home, true);
    // Deeply nested input runs (on a large stack) and prints like any other.
    s.send_line(format!("size({}_4{})", "(".repeat(200), ")".repeat(200))).unwrap();
    until(&mut s, "_4\r\n");
    prompt(&mut s);
    s.send_line(format!("{}1{}", "(".repeat(300), ")".repeat(300))).unwrap();
    until(&mut s, "nesting too deep");
    prompt(&mut s);
    s.send_line("_").unwrap();
    until(&mut s, "_4\r\n");
    prompt(&mut s);
    s.send_line(format!(":save {}", script.display())).unwrap();
    until(&mut s, "saved 2 input");
    prompt(&mut s);
    exit_with_ctrl_d(s);
    // The lone `_` is saved as `last`, which a script understands.
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.ends_with(")\nlast\n"), "{text}");
}

/// Issue 10: lines typed ahead (sent at once, without waiting for prompts) all run, in order,
/// once: what arrives while a statement runs or between two `readline` calls is kept.
#[test]
fn typed_ahead_lines_all_run_in_order() {
    let home = temp_home();
    let mut s = start(&home, true);
    let lines: String = (1..=50).map(|i| format!("700000 + {i}\n")).collect();
    s.send(&lines).unwrap();
    for i in 1..=50 {
        until(&mut s, &format!("\n{}\r", 700000 + i));
    }
    // and nothing ran twice
    s.send_line("999999 + 1").unwrap();
    let rest = until(&mut s, "1000000\r");
    assert!(!rest.contains("700050\r"), "{rest:?}");
    exit_with_ctrl_d(s);
}

/// The words people try first: print, help, help(f), ?f, f?, exit.
#[test]
fn familiar_words() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send_line("print((2,3):(1,2))").unwrap();
    until(&mut s, "(2,3):(1,2)\r");
    prompt(&mut s);
    s.send_line("help").unwrap();
    until(&mut s, "Functions (");
    prompt(&mut s);
    s.send_line("?coalesce").unwrap();
    until(&mut s, "coalesce(L [, profile])");
    prompt(&mut s);
    s.send_line("complement?").unwrap();
    until(&mut s, "complement(L [, cotarget])");
    prompt(&mut s);
    s.send_line("help(make_tiled_mma)").unwrap();
    until(&mut s, "MMA operations by architecture");
    until(&mut s, "SM80_16x8x16_F32F16F16F32_TN");
    prompt(&mut s);
    s.send_line("SM80_16x8x16_F32F16F16F32_NT").unwrap();
    until(&mut s, "did you mean 'SM80_16x8x16_F32F16F16F32_TN'?");
    prompt(&mut s);
    s.send_line("nosuchname").unwrap();
    until(&mut s, "`:help` lists the functions");
    prompt(&mut s);
    s.send_line("exit").unwrap();
    s.expect(Eof).expect("eof after exit");
    let pid = s.get_process().pid();
    assert_eq!(s.get_process().wait().expect("wait"), WaitStatus::Exited(pid, 0));
}

/// Tab completes operation names and constants.
#[test]
fn tab_completes_atoms_and_constants() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send("A = mma_atom(SM80_16x8x16_F32F16F16F32_T\t").unwrap();
    s.send_line(")").unwrap();
    prompt(&mut s);
    s.send_line("mma_shape_mnk(SM80_16x8x16_F32F16F16F32_TN)").unwrap();
    until(&mut s, "(_16,_8,_16)");
    prompt(&mut s);
    s.send("C = copy_atom(SM75_U32x4_LDSM_N, hal\t").unwrap();
    s.send_line(")").unwrap();
    prompt(&mut s);
    s.send_line(":vars").unwrap();
    until(&mut s, "C = Copy_Atom");
    prompt(&mut s);
    s.send("LayoutRi\t").unwrap();
    s.send_line("").unwrap();
    until(&mut s, "LayoutRight");
    prompt(&mut s);
    exit_with_ctrl_d(s);
}

/// An entry left open by a bracket continues under a `...:` prompt; `quit()` leaves.
#[test]
fn continuation_prompt() {
    let home = temp_home();
    let mut s = start(&home, true);
    s.send_line("A = (2,").unwrap();
    until(&mut s, "...:");
    s.send_line("4):(1,2)").unwrap();
    prompt(&mut s);
    s.send_line("size(A)").unwrap();
    until(&mut s, "8\r");
    prompt(&mut s);
    s.send_line("quit()").unwrap();
    s.expect(Eof).expect("eof after quit()");
}
