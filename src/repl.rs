//! The interactive REPL: a thin rustyline loop around one `Session`.
//!
//! Prompt `cute> `; history in `$XDG_STATE_HOME/cute/history` (else `~/.local/state/cute/history`);
//! Ctrl-R searches it; a grey hint from history; Tab completes function names (from the
//! registry), bound names and `:` commands; an entry with open brackets or a trailing `\`
//! continues on the next line; input is syntax-coloured when colour is on. Ctrl-C cancels the
//! entry, Ctrl-D leaves (status 0); an error never ends the session.
//! Typed-ahead and pasted input is kept (rustyline's `buffer-redux` keeps what it read past
//! one entry for the next), and an entry left open by a bracket continues under a `...:` prompt.
//! The words people try first work too: `help`, `help(f)`, `?f`, `f?`, `exit`, `quit`.
//! May import: `session`, `diagnostic`, `parser` (is_incomplete), `registry` (names, help),
//! `interp` (suggestions, tag names), `eval::atoms` tables (operation names and traits, for completion and `:help atoms`).

use crate::diagnostic::{paint, paint_value, Style};
use crate::interp::{suggest, TAG_NAMES};
use crate::registry as builtins;
use crate::session::{Options, Session};
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{CompletionType, Config, Context, Editor, Helper};
use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;

/// The prompt.
pub const PROMPT: &str = "cute> ";

/// The prompt of an entry's continuation lines (an open bracket or a trailing `\`).
pub const CONTINUATION: &str = "...:  ";

/// Lines longer than this are not re-coloured at every key press.
const MAX_LIVE_HIGHLIGHT: usize = 512;

/// Ctrl-C while a statement runs (outside the line editor, which reads Ctrl-C as a key):
/// the session survives; what is left of the output is dropped and `^C` is shown.
#[cfg(unix)]
mod sigint {
    use std::sync::atomic::{AtomicBool, Ordering};

    static HIT: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_sigint(_signum: i32) {
        HIT.store(true, Ordering::SeqCst);
    }

    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }

    const SIGINT: i32 = 2;

    /// Catch SIGINT for the rest of the process (the REPL only).
    pub fn install() {
        // SAFETY: `signal` is the C library's; the handler only stores to an atomic, which is
        // async-signal-safe.
        unsafe {
            signal(SIGINT, on_sigint as extern "C" fn(i32) as usize);
        }
    }

    pub fn hit() -> bool {
        HIT.load(Ordering::SeqCst)
    }

    /// Whether Ctrl-C was pressed since the last call.
    pub fn take() -> bool {
        HIT.swap(false, Ordering::SeqCst)
    }
}

#[cfg(not(unix))]
mod sigint {
    pub fn install() {}
    pub fn hit() -> bool {
        false
    }
    pub fn take() -> bool {
        false
    }
}

/// A writer that stops writing once Ctrl-C was pressed.
struct Interruptible<W: Write>(W);

impl<W: Write> Write for Interruptible<W> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        if sigint::hit() {
            return Err(std::io::Error::other("interrupted"));
        }
        // Large outputs (print_layout, print_latex) go out in pieces so that Ctrl-C stops them.
        let n = b.len().min(1 << 14);
        self.0.write(&b[..n])
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if sigint::hit() {
            return Ok(());
        }
        self.0.flush()
    }
}

/// The REPL's commands, with a one-line description each.
pub const COMMANDS: &[(&str, &str)] = &[
    (":help", "overview; `:help NAME` a function, `:help atoms` the MMA atoms, `:help run|emit|explain|assert`"),
    (":vars", "list the bound names and their values"),
    (":cpp", "the bindings as CuTe C++ declarations (`auto sA = ...;`)"),
    (":reset", "forget every binding"),
    (":load", "`:load FILE` runs a .cute script into the session"),
    (":save", "`:save FILE` writes the inputs accepted so far as a .cute script"),
    (":time-limit", "`:time-limit SECONDS` stops a statement running longer with an error (0: none); alone: the limit"),
    (":quit", "leave (Ctrl-D does the same)"),
];

/// Where history is kept: `$XDG_STATE_HOME/cute/history`, else `$HOME/.local/state/cute/history`.
pub fn history_path() -> Option<PathBuf> {
    let nonempty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = match nonempty("XDG_STATE_HOME").filter(|p| p.is_absolute()) {
        Some(p) => p,
        None => nonempty("HOME")?.join(".local").join("state"),
    };
    Some(base.join("cute").join("history"))
}

/// The rustyline helper: completion, hints, validation, highlighting.
pub struct CuteHelper {
    /// Bound names (refreshed after each entry).
    pub vars: Vec<String>,
    pub color: bool,
    hinter: HistoryHinter,
}

impl CuteHelper {
    pub fn new(color: bool) -> CuteHelper {
        CuteHelper { vars: Vec::new(), color, hinter: HistoryHinter::new() }
    }

    /// Candidates completing the word that ends at `pos`: (start of the word, candidates).
    pub fn candidates(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let pos = pos.min(line.len());
        let head = &line[..pos];
        let trimmed = head.trim_start();
        // `:comm` → commands
        if trimmed.starts_with(':') && !trimmed.contains(char::is_whitespace) {
            let start = head.len() - trimmed.len();
            let v = COMMANDS.iter().map(|(c, _)| c.to_string()).filter(|c| c.starts_with(trimmed)).collect();
            return (start, v);
        }
        let start = head
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
            .last()
            .map_or(pos, |(i, _)| i);
        let word = &head[start..];
        if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit() || c == '_') {
            return (start, Vec::new());
        }
        let after_help = trimmed.starts_with(":help");
        let mut v: Vec<String> = builtins::names()
            .into_iter()
            .filter(|n| !n.starts_with("__") && n.starts_with(word))
            .map(str::to_string)
            .collect();
        if !after_help {
            // statement keywords, at the start of a statement
            if head[..start].trim_end().is_empty() || head[..start].trim_end().ends_with(';') {
                v.extend(
                    ["assert", "explain", "run", "emit"].iter().filter(|k| k.starts_with(word)).map(|s| s.to_string()),
                );
            }
            v.extend(self.vars.iter().filter(|n| n.starts_with(word)).cloned());
            v.extend(TAG_NAMES.iter().filter(|n| n.starts_with(word)).map(|s| s.to_string()));
            if word.starts_with(|c: char| c.is_ascii_uppercase()) {
                v.extend(op_names().iter().filter(|n| n.starts_with(word)).cloned());
            }
        } else {
            v.extend(TOPICS.iter().map(|(t, _)| t.to_string()).filter(|t| t.starts_with(word)));
        }
        v.sort();
        v.dedup();
        (start, v)
    }
}

impl Completer for CuteHelper {
    type Candidate = Pair;
    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, v) = self.candidates(line, pos);
        Ok((start, v.into_iter().map(|s| Pair { display: s.clone(), replacement: s }).collect()))
    }
}

impl Hinter for CuteHelper {
    type Hint = String;
    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        // A hint is grey text; without colour it would look typed, so none.
        if !self.color {
            return None;
        }
        self.hinter.hint(line, pos, ctx)
    }
}

impl Validator for CuteHelper {
    /// Every line is accepted as typed: an incomplete entry continues in the loop under the
    /// `...:` prompt (rustyline has no continuation prompt of its own), so that typed-ahead
    /// lines are entries of their own, as on any shell.
    fn validate(&self, _ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(ValidationResult::Valid(None))
    }
}

impl Highlighter for CuteHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.color {
            return Cow::Borrowed(line);
        }
        Cow::Owned(highlight_input(line))
    }
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(&'s self, prompt: &'p str, default: bool) -> Cow<'b, str> {
        if self.color && default {
            Cow::Owned(paint(prompt, Style::Gutter, true))
        } else {
            Cow::Borrowed(prompt)
        }
    }
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(paint(hint, Style::Dim, true))
        } else {
            Cow::Borrowed(hint)
        }
    }
    fn highlight_char(&self, line: &str, _pos: usize, _kind: CmdKind) -> bool {
        // Re-colouring redraws the whole line at every key: fine for what people type, far too
        // slow for a few thousand characters typed into a terminal without bracketed paste.
        self.color && line.len() <= MAX_LIVE_HIGHLIGHT
    }
}

impl Helper for CuteHelper {}

/// Syntax colouring of one input: static integers, swizzles, keywords (`assert`, `o`, `run`,
/// `emit`), function names, comments. Keeps the display width (only adds escape codes).
pub fn highlight_input(line: &str) -> String {
    let mut out = String::with_capacity(line.len() * 2);
    let mut plain = String::new();
    let flush = |plain: &mut String, out: &mut String| {
        out.push_str(&paint_value(plain, true));
        plain.clear();
    };
    let mut it = line.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if c == '"' {
            // A string: its `#` and words are text (an escaped quote does not end it).
            plain.push(c);
            let mut escaped = false;
            for (_, d) in it.by_ref() {
                plain.push(d);
                if d == '"' && !escaped {
                    break;
                }
                escaped = d == '\\' && !escaped;
            }
            continue;
        }
        if c == '#' {
            flush(&mut plain, &mut out);
            out.push_str(&paint(&line[i..], Style::Dim, true));
            return out;
        }
        if c.is_ascii_alphabetic() && !plain.ends_with(|p: char| p.is_ascii_alphanumeric() || p == '_') {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = it.peek() {
                if d.is_ascii_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    it.next();
                } else {
                    break;
                }
            }
            let word = &line[i..end];
            let style = match word {
                "assert" | "o" | "run" | "emit" | "gemm" | "explain" => Some(Style::Keyword),
                w if builtins::exists(w) && !w.starts_with("__") => Some(Style::Function),
                _ => None,
            };
            match style {
                Some(s) => {
                    flush(&mut plain, &mut out);
                    out.push_str(&paint(word, s, true));
                }
                None => plain.push_str(word),
            }
            continue;
        }
        plain.push(c);
    }
    flush(&mut plain, &mut out);
    out
}

/// The `:help` overview.
pub fn overview() -> String {
    let mut s = String::from(
        "cute: CuTe's layout algebra, printed exactly as CuTe C++ prints it.

Values
  12  _12          dynamic / static integer
  (a,b,(c,d))      integer tuple (shape, stride, coordinate)
  S:D              layout, e.g. (_4,_2):(_1,_4)
  <3:3,(2,4):(1,8)> tiler;  _  all of a mode
  Sw<3,3,3>        swizzle;  Sw<3,3,3> o L  swizzled layout
Expressions
  A o B            composition(A, B)
  f(x, y), f<i>(x) CuTe functions, e.g. logical_divide(L, <2,3>)
  A(i), A(i,j), A(_,1)   evaluate or slice a layout
  a + b, a - b, a * b, a / b   integer arithmetic
Statements
  expr             print the value;   name = expr   bind a name
  assert c         assert a == b (ignores static-ness);  identical(a,b), equivalent(A,B)
  a; b             several statements;  # comment;  open brackets or a trailing \\ continue
  _                (alone) the last value; `last` names it inside expressions
  explain expr     how CuTe gets the value: steps and the law checked, e.g. explain complement(L, 24)
  run gemm M N K   build, check and time a GEMM from layouts (emit gemm: print its CUDA)
  print(x)         CuTe's print: the value;  print_layout(L) its table, print_tensor(T) a tensor's elements
Help: `:help NAME` (also `help(NAME)`, `?NAME`, `NAME?`), `:help atoms` (MMA operations),
  `:help assert|explain|run|emit`; Tab completes names, operations and types. `exit` leaves.
Commands
",
    );
    for (c, d) in COMMANDS {
        s.push_str(&format!("  {c:<8} {d}\n"));
    }
    let names: Vec<&str> = builtins::names().into_iter().filter(|n| !n.starts_with("__")).collect();
    s.push_str(&format!("Functions ({}; Tab completes, `:help NAME` explains)\n", names.len()));
    let mut line = String::from(" ");
    for n in names {
        if line.len() + n.len() + 1 > 78 {
            s.push_str(&line);
            s.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(n);
    }
    if line.trim().is_empty() {
        s.push_str("  (none registered)\n");
    } else {
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// Help topics that are not functions: statement kinds and the atom tables.
pub const TOPICS: &[(&str, &str)] = &[
    (
        "assert",
        "assert c            passes when the integer c is not 0
assert a == b       passes when a and b are equal, ignoring static-ness (`_8 == 8` holds)
assert identical(a, b)    equal including static-ness (`identical(_8, 8)` fails)
assert equivalent(A, B)   the same function on the same domain (layouts)
A failed assert prints both sides (with their static-ness), file:line:col, and exits 1
(`cute --keep-going` runs on and ends with `N passed, M failed`).
A warning a script expects is marked on its line, or the comment line above:
  R = (_4,_6):(_2,_16) o _4:_3   # expect warning
it then reads `warning (expected):`; a marked statement without a warning fails.
example:
  cute> assert size((_2,_4)) == 8
  cute> assert identical(size((_2,_4)), 8)
  error: assertion failed: identical(size((_2,_4)), 8)
",
    ),
    (
        "explain",
        "explain EXPR        how CuTe arrives at the value of a call, `A o B` or `L(c)`: the
                    definition, the intermediate values, the law checked point by point;
                    step by step for coalesce, composition, complement, the divides and
                    products, the inverses, up/downcast, recast_layout, tile_to_shape,
                    max_common_vector/layout, crd2idx, swizzles, make_tiled_mma/copy,
                    get_layoutA/B/C/S/D_TV, local_tile/partition, partition_A/B/C/S/D
                    (other functions: their definition)
example:
  cute> explain complement((_2,_2):(_1,_6), _24)
",
    ),
    (
        "run",
        "run gemm M N K [key=value ...]    build a GEMM kernel from layouts, check it against a
                    reference and time it next to cuBLAS (needs a GPU)
emit gemm M N K [key=value ...]   print its CUDA C++ instead (no GPU needed)
M, N, K: the problem size (all three are needed). Keys:
  dtype=f16|bf16  out=f16|bf16|f32  layout=NN|NT|TN|TT  tile=<BM,BN,BK>  stages=N
  mma=OP (SM80_16x8x16_F32F16F16F32_TN, ...)  smem_a=L smem_b=L (swizzled layouts)
  copy_a=L copy_b=L (thread layouts)  raster=N  iters=N warmup=N (run only)
  arch=sm80|sm90 (run: sm90 on a 9.0 GPU; emit: sm80)  sm90 only: consumers=1|2  persistent=0|1
  (sm90: layout=TN, smem_a/smem_b one of the K-major GMMA atoms, e.g. Sw<2,3,3> o (_8,_32):(_32,_1))
The source's header states the layouts, the tiled MMA and the bank-conflict degree of the
shared-memory traffic (a conflicting smem layout is also a warning).
example:
  cute> emit gemm 1000 1000 1000 layout=NN tile=<128,128,32> stages=4
  cute> emit gemm 2048 2048 2048 arch=sm90 consumers=1 tile=<64,256,64>
",
    ),
    ("emit", ""),
    ("gemm", ""),
    ("atoms", ""),
];

use crate::eval::atoms::op_names;

/// The architecture an operation name belongs to (`SM80_...` → `SM80`; others: `any`).
fn arch(name: &str) -> &str {
    match name.split_once('_') {
        Some((a, _)) if a.starts_with("SM") && a[2..].bytes().all(|b| b.is_ascii_digit()) => a,
        _ => "any",
    }
}

/// A GMMA name with its N written `N` (`SM90_64x128x16_F16F16F16_SS` → `SM90_64xNx16_F16F16F16_SS`,
/// 128), so that the eight N of one family are one line.
fn gmma_family(name: &str) -> Option<(String, i64)> {
    let rest = name.strip_prefix("SM90_64x")?;
    let (n, rest) = rest.split_once('x')?;
    let n: i64 = n.parse().ok()?;
    Some((format!("SM90_64xNx{rest}"), n))
}

/// `:help atoms`: the MMA operations as a table drawn from the atom data (shape MNK, the types
/// D A B C as the name gives them, threads), GMMA families on one line each.
pub fn atoms_table() -> String {
    use crate::eval::atoms::mma_table;
    use crate::eval::builtins::TArg;
    let mut rows: Vec<(String, String, String, String)> = Vec::new();
    let mut families: Vec<(String, Vec<i64>, String, String, String)> = Vec::new();
    for n in mma_table::all_names() {
        let targs = if n.ends_with("_SS") || n.ends_with("_RS") {
            vec![TArg::Name("K".into()), TArg::Name("K".into())]
        } else {
            vec![]
        };
        let Some(Ok(t)) = mma_table::lookup(&n, &targs) else { continue };
        let threads = crate::eval::ops::structure::size(&t.thr_id).map(|i| i.v.to_string()).unwrap_or_default();
        let types = n.split('_').nth(2).unwrap_or("").to_string();
        let mnk = t.shape_mnk.to_string();
        match gmma_family(&n) {
            Some((fam, nn)) => match families.iter_mut().find(|f| f.0 == fam) {
                Some(f) => f.1.push(nn),
                None => families.push((
                    fam,
                    vec![nn],
                    "(_64,N,".to_string() + mnk.rsplit(',').next().unwrap_or(""),
                    types,
                    threads,
                )),
            },
            None => rows.push((n, mnk, types, threads)),
        }
    }
    let mut s =
        String::from("MMA operations (use with mma_atom(OP), make_tiled_mma(OP, atom_layout); types are D A B C):\n");
    s.push_str(&format!("  {:<36} {:<14} {:<16} {}\n", "operation", "shape MNK", "types", "threads"));
    let mut last_arch = "";
    for (n, mnk, types, threads) in &rows {
        let a = arch(n);
        if a != last_arch {
            s.push_str(&format!("{a}\n"));
            last_arch = a;
        }
        s.push_str(&format!("  {n:<36} {mnk:<14} {types:<16} {threads}\n"));
    }
    s.push_str("SM90 (GMMA, one warpgroup; _SS/_RS take <K|MN, K|MN>, e.g. SM90_64x128x16_F16F16F16_SS<K,K>)\n");
    for (fam, ns, mnk, types, threads) in &families {
        let ns: Vec<String> = ns.iter().map(|n| n.to_string()).collect();
        s.push_str(&format!("  {fam:<36} {mnk:<14} {types:<16} {threads}   N = {}\n", ns.join(",")));
    }
    s.push_str("Copy operations: `:help make_tiled_copy`.\n");
    s
}

/// Names grouped by architecture, a few per line.
fn by_arch(names: &[String]) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for n in names {
        let a = arch(n);
        match groups.iter_mut().find(|g| g.0 == a) {
            Some(g) => g.1.push(n),
            None => groups.push((a, vec![n])),
        }
    }
    // by architecture number, names without one last
    groups.sort_by_key(|g| g.0.strip_prefix("SM").and_then(|d| d.parse::<u32>().ok()).unwrap_or(u32::MAX));
    let mut s = String::new();
    for (a, ns) in groups {
        s.push_str(&format!("  {a}:\n"));
        let mut line = String::from("   ");
        for n in ns {
            if line.len() + n.len() > 96 {
                s.push_str(&line);
                s.push('\n');
                line = String::from("   ");
            }
            line.push(' ');
            line.push_str(n);
        }
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// The atoms a function takes, listed after its help (`:help make_tiled_mma`).
fn atoms_for(name: &str) -> Option<String> {
    match name {
        "make_tiled_mma" | "mma_atom" | "mma_shape_mnk" | "mma_thr_id" | "mma_layout_A" | "mma_layout_B"
        | "mma_layout_C" => {
            let mut fams: Vec<String> = Vec::new();
            for n in crate::eval::atoms::mma_table::all_names() {
                let n = gmma_family(&n).map(|f| f.0).unwrap_or(n);
                if !fams.contains(&n) {
                    fams.push(n);
                }
            }
            Some(format!(
                "MMA operations by architecture (SM90 GMMA: N = 8,16,32,64,96,128,192,256; `:help atoms` has their shapes and threads):\n{}",
                by_arch(&fams)
            ))
        }
        "make_tiled_copy" | "copy_atom" | "make_tiled_copy_A" | "make_tiled_copy_B" | "make_tiled_copy_C" => {
            let names: Vec<String> =
                crate::eval::atoms::copy_table::fixed_names().into_iter().map(str::to_string).collect();
            Some(format!(
                "copy operations by architecture (use as copy_atom(OP, T), e.g. copy_atom(SM75_U32x4_LDSM_N, half_t);\nUniversalCopy<T> and SM80_CP_ASYNC_*<T> take the copied type):\n{}",
                by_arch(&names)
            ))
        }
        _ => None,
    }
}

/// `:help NAME`.
pub fn help_for(name: &str) -> Result<String, String> {
    let name = name.trim();
    if let Some((t, text)) = TOPICS.iter().find(|(t, _)| *t == name) {
        return Ok(match *t {
            "atoms" => atoms_table(),
            "emit" | "gemm" => TOPICS.iter().find(|(t, _)| *t == "run").map(|x| x.1).unwrap_or("").to_string(),
            _ => text.to_string(),
        });
    }
    if let Some((c, d)) = COMMANDS.iter().find(|(c, _)| *c == name || c[1..] == *name) {
        return Ok(format!("{c}: {d}\n"));
    }
    let entries = if name.starts_with("__") { Vec::new() } else { builtins::forms(name) };
    if entries.is_empty() {
        if op_names().iter().any(|n| n == name) {
            return Ok(format!(
                "{name}: an {} operation (`:help atoms` lists them with their shapes)\n",
                if crate::eval::atoms::copy_table::fixed_names().contains(&name) { "copy" } else { "MMA" }
            ));
        }
        let mut names = builtins::names();
        names.extend(TOPICS.iter().map(|(t, _)| *t));
        names.extend(op_names().iter().map(String::as_str));
        let mut msg = format!("no function or topic named '{name}'");
        if let Some(s) = suggest(name, &names) {
            msg.push_str(&format!("; did you mean '{s}'?"));
        }
        return Err(msg);
    }
    // Overloads in several modules: each distinct signature with its doc and example.
    let mut s = String::new();
    let mut seen: Vec<&str> = Vec::new();
    for b in &entries {
        if seen.contains(&b.sig) {
            continue;
        }
        seen.push(b.sig);
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(&format!("{}\n  {}\n", b.sig, b.doc));
        if !b.example.is_empty() {
            s.push_str(&format!("example:\n  cute> {}\n", b.example));
            for l in b.result.lines() {
                s.push_str(&format!("  {l}\n"));
            }
        }
    }
    if let Some(a) = atoms_for(name) {
        s.push_str(&a);
    }
    if crate::eval::explain::EXPLAINED.contains(&name) {
        s.push_str(&format!("`explain {name}(...)` shows how CuTe computes it, step by step (`:help explain`)\n"));
    }
    Ok(s)
}

/// The function table of the README, in Markdown, from the registry: one row per function
/// (first signature, meaning, example → result).
pub fn function_table() -> String {
    let mut s = String::from("| function | meaning | example | CuTe prints |\n|---|---|---|---|\n");
    let esc = |t: &str| t.replace('|', "\\|").replace('\n', "<br>");
    for n in builtins::names() {
        if n.starts_with("__") {
            continue;
        }
        if let Some(b) = builtins::lookup(n) {
            let first = b.result.lines().next().unwrap_or("");
            let more = if b.result.lines().count() > 1 { " ..." } else { "" };
            s.push_str(&format!(
                "| `{}` | {} | `{}` | `{}`{more} |\n",
                esc(b.sig),
                esc(b.doc),
                esc(b.example),
                esc(first)
            ));
        }
    }
    s
}

/// What an entry asks the loop to do.
pub enum Cmd {
    Continue,
    Quit,
}

/// The words people try first, before the `:` commands: `help`, `help()`, `help(f)`,
/// `help f`, `?f`, `f?` show help; `exit`, `quit`, `exit()`, `quit()` leave. A word bound as a
/// name (`help = 3`) is that name.
fn word(line: &str, session: &Session) -> Option<String> {
    word_with(line, &|n: &str| session.interp().bindings().any(|(b, _)| b == n))
}

/// `word` with `bound` telling which names are bound.
fn word_with(line: &str, bound: &dyn Fn(&str) -> bool) -> Option<String> {
    let t = line.trim().trim_end_matches(';').trim();
    let ident = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if matches!(t, "exit" | "quit" | "exit()" | "quit()") && !bound(t.trim_end_matches("()")) {
        return Some(":quit".into());
    }
    if (t == "help" || t == "help()") && !bound("help") {
        return Some(":help".into());
    }
    let arg = t
        .strip_prefix("help(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| t.strip_prefix("help "))
        .filter(|_| !bound("help"))
        .or_else(|| t.strip_prefix('?'))
        .or_else(|| t.strip_suffix('?'))
        .map(str::trim)?;
    ident(arg).then(|| format!(":help {arg}"))
}

/// One REPL entry: a `:` command, a word (`help`, `exit`, ...), or statements for the session.
pub fn entry(line: &str, session: &mut Session, out: &mut dyn Write, err: &mut dyn Write) -> Cmd {
    if line.trim_start().starts_with(':') {
        return command(line, session, out, err);
    }
    if let Some(c) = word(line, session) {
        return command(&c, session, out, err);
    }
    session.run(line, "<repl>", out, err);
    Cmd::Continue
}

pub fn command(line: &str, session: &mut Session, out: &mut dyn Write, err: &mut dyn Write) -> Cmd {
    let line = line.trim();
    let (cmd, arg) = match line.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (line, ""),
    };
    let color = session.opts.color_diagnostics;
    let error = |err: &mut dyn Write, msg: &str| {
        let _ = writeln!(err, "{}: {msg}", paint("error", Style::Error, color));
    };
    match cmd {
        ":help" | ":h" | ":?" => {
            if arg.is_empty() {
                let _ = write!(out, "{}", overview());
            } else {
                match help_for(arg) {
                    Ok(s) => {
                        let _ = write!(out, "{s}");
                    }
                    Err(m) => error(err, &m),
                }
            }
        }
        ":cpp" => {
            for (n, v) in session.interp().bindings() {
                let _ = writeln!(out, "{}", crate::render::cpp::declaration(n, v));
            }
        }
        ":vars" => {
            let mut any = false;
            for (n, v) in session.interp().bindings() {
                any = true;
                let _ = writeln!(out, "{n} = {}", paint_value(&v.to_string(), session.opts.color_values));
            }
            if !any {
                let _ = writeln!(out, "(no bindings)");
            }
        }
        ":reset" => {
            session.reset();
            let _ = writeln!(out, "bindings cleared");
        }
        ":load" => {
            if arg.is_empty() {
                error(err, ":load needs a file name");
            } else {
                match std::fs::read(arg) {
                    Ok(bytes) => match crate::session::decode_script(bytes, arg, color) {
                        Ok(text) => {
                            session.run(&text, arg, out, err);
                        }
                        Err(msg) => {
                            let _ = err.write_all(msg.as_bytes());
                        }
                    },
                    Err(e) => error(err, &format!("cannot read {arg}: {e}")),
                }
            }
        }
        ":save" => {
            if arg.is_empty() {
                error(err, ":save needs a file name");
            } else {
                let script = session.script();
                match std::fs::write(arg, &script) {
                    Ok(()) => {
                        let _ = writeln!(out, "saved {} input(s) to {arg}", session.accepted().len());
                    }
                    Err(e) => error(err, &format!("cannot write {arg}: {e}")),
                }
            }
        }
        ":time-limit" => {
            if arg.is_empty() {
                let _ = writeln!(out, "time limit of one statement: {}", session.opts.time_limit);
            } else {
                match crate::session::parse_time_limit(arg) {
                    Some(t) => session.opts.time_limit = t,
                    None => error(err, &format!(":time-limit takes seconds (0 for no limit), not `{arg}`")),
                }
            }
        }
        ":quit" | ":q" | ":exit" => return Cmd::Quit,
        _ => {
            let names: Vec<&str> = COMMANDS.iter().map(|(c, _)| *c).collect();
            let mut m = format!("unknown command '{cmd}'");
            if let Some(s) = suggest(cmd, &names) {
                m.push_str(&format!("; did you mean '{s}'?"));
            } else {
                m.push_str("; :help lists the commands");
            }
            error(err, &m);
        }
    }
    let _ = out.flush();
    Cmd::Continue
}

/// A script in which lines starting with `:` (outside open brackets) are REPL commands, and
/// the REPL's words (`help(f)`, `?f`, `exit`) too: what `cute` reads from a pipe. The statements between commands run as one piece each, their
/// line numbers those of the whole text. Stops at the first failure unless `keep_going`.
pub fn run_script_with_commands(
    text: &str,
    origin: &str,
    session: &mut Session,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> crate::session::Outcome {
    use crate::session::Outcome;
    let mut worst = Outcome::Ok;
    let mut piece = String::new();
    let mut first_line = 0;
    let flush = |piece: &mut String,
                 first_line: usize,
                 session: &mut Session,
                 worst: &mut Outcome,
                 out: &mut dyn Write,
                 err: &mut dyn Write|
     -> bool {
        if piece.trim().is_empty() {
            piece.clear();
            return true;
        }
        // (messages give the line numbers of the whole input)
        let r = session.run_from_line(piece, origin, first_line, out, err);
        piece.clear();
        if r.exit_code() > worst.exit_code() {
            *worst = r;
        }
        r == Outcome::Ok || session.opts.keep_going
    };
    for (i, line) in text.split_inclusive('\n').enumerate() {
        // `help(f)`, `f?`, `exit` as in the REPL; the statements before run first, so that a
        // name they bind (`help = 3`) is that name.
        let word_like = word_with(line, &|_| false).is_some();
        // A command only where the statements before it are complete: that is asked only of a
        // line that looks like one (asked of every line, it made reading a script quadratic in
        // its length: a 20,000-line script took 23 s through a pipe).
        let command_like = line.trim_start().starts_with(':') || word_like;
        if command_like && !crate::session::is_incomplete(&piece) {
            if !flush(&mut piece, first_line, session, &mut worst, out, err) {
                return worst;
            }
            let cmd = if word_like { word(line, session) } else { Some(line.to_string()) };
            if let Some(cmd) = cmd {
                if let Cmd::Quit = command(&cmd, session, out, err) {
                    return worst;
                }
                continue;
            }
        }
        if piece.is_empty() {
            first_line = i;
        }
        piece.push_str(line);
    }
    flush(&mut piece, first_line, session, &mut worst, out, err);
    worst
}

/// Run the REPL until Ctrl-D or `:quit`. Returns the process exit status.
pub fn run(opts: Options) -> i32 {
    let mut session = Session::new(Options { repl: true, interactive: true, keep_going: false, echo: false, ..opts });
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_space(true)
        .max_history_size(10_000)
        .map(|b| b.completion_type(CompletionType::List).build())
        .unwrap_or_else(|_| Config::builder().completion_type(CompletionType::List).build());
    let mut rl: Editor<CuteHelper, DefaultHistory> = match Editor::with_config(config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the line editor: {e}");
            return 1;
        }
    };
    rl.set_helper(Some(CuteHelper::new(opts.color_values)));
    let hist = history_path();
    if let Some(p) = &hist {
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if p.exists() {
            let _ = rl.load_history(p);
        }
    }
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    sigint::install();
    // The entry being read: lines so far (an open bracket or a trailing `\` continues it).
    let mut pending = String::new();
    loop {
        sigint::take();
        let prompt = if pending.is_empty() { PROMPT } else { CONTINUATION };
        match rl.readline(prompt) {
            Ok(line) => {
                if pending.is_empty() && line.trim().is_empty() {
                    continue;
                }
                if !pending.is_empty() {
                    pending.push('\n');
                }
                pending.push_str(&line);
                if !pending.trim_start().starts_with(':') && crate::session::is_incomplete(&pending) {
                    continue;
                }
                let entry_text = std::mem::take(&mut pending);
                let _ = rl.add_history_entry(entry_text.as_str());
                if let Some(p) = &hist {
                    if rl.append_history(p).is_err() {
                        let _ = rl.save_history(p);
                    }
                }
                let (mut out, mut err) = (Interruptible(stdout.lock()), Interruptible(stderr.lock()));
                if let Cmd::Quit = entry(&entry_text, &mut session, &mut out, &mut err) {
                    break;
                }
                let _ = out.flush();
                if sigint::take() {
                    let (mut o, mut e) = (out.0, err.0);
                    let _ = o.flush();
                    let _ = writeln!(e, "\n^C (output interrupted)");
                }
                if let Some(h) = rl.helper_mut() {
                    h.vars = session.interp().bindings().map(|(n, _)| n.to_string()).collect();
                }
            }
            // Ctrl-C cancels the entry (all of its lines).
            Err(ReadlineError::Interrupted) => pending.clear(),
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        }
    }
    0
}

/// Markdown doctests (`cute --doctest`): every fenced ```` ```cute ```` block, in which lines starting with
/// `cute> ` are inputs and the lines up to the next input or the closing fence are the
/// expected output.
///
/// Policy: one session per file (bindings carry from block to block), REPL rules (a lone `_`
/// is the last value), no colour. The output compared is what the REPL shows: values (stdout)
/// and diagnostics (stderr), in the order they are written, with diagnostics naming the
/// source `<repl>`. Lines starting with `cute> :` are REPL commands (`:help NAME`, `:vars`, ...). Trailing blank lines of the expected and the actual output are ignored;
/// everything else is compared byte for byte. An input continues on the following lines while
/// it is incomplete (open brackets, trailing `\`).
pub mod doctest {
    use crate::session::{Options, Session};

    /// One example: where its input starts (1-based line), the input, the expected output.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Example {
        pub line: usize,
        pub input: String,
        pub expected: String,
    }

    /// The examples of a Markdown text.
    pub fn examples(md: &str) -> Vec<Example> {
        let lines: Vec<&str> = md.lines().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let t = lines[i].trim_start();
            let fence = t.chars().take_while(|&c| c == '`' || c == '~').count();
            if fence >= 3 && t[fence..].trim().split([' ', ',', '{']).next() == Some("cute") {
                let marker = &t[..fence];
                i += 1;
                let mut cur: Option<Example> = None;
                while i < lines.len() && !lines[i].trim_start().starts_with(marker) {
                    let l = lines[i];
                    if let Some(input) = l.strip_prefix("cute> ").or_else(|| (l == "cute>").then_some("")) {
                        if let Some(e) = cur.take() {
                            out.push(e);
                        }
                        let mut ex = Example { line: i + 1, input: input.to_string(), expected: String::new() };
                        // Continuation lines of an incomplete input.
                        while crate::session::is_incomplete(&ex.input)
                            && i + 1 < lines.len()
                            && !lines[i + 1].trim_start().starts_with(marker)
                            && !lines[i + 1].starts_with("cute> ")
                        {
                            i += 1;
                            ex.input.push('\n');
                            ex.input.push_str(lines[i]);
                        }
                        cur = Some(ex);
                    } else if let Some(e) = cur.as_mut() {
                        e.expected.push_str(l);
                        e.expected.push('\n');
                    }
                    i += 1;
                }
                if let Some(e) = cur.take() {
                    out.push(e);
                }
            }
            i += 1;
        }
        out
    }

    fn trim_trailing_blank(s: &str) -> &str {
        let t = s.trim_end_matches(['\n', ' ', '\t', '\r']);
        // keep the final newline of the last non-blank line
        &s[..t.len()]
    }

    /// Check one Markdown file; failures are reported on `report` as `file:line` plus a diff.
    /// Returns (passed, failed).
    pub fn check(name: &str, md: &str, report: &mut dyn std::io::Write) -> (usize, usize) {
        let mut session = Session::new(Options { repl: true, ..Options::default() });
        let (mut passed, mut failed) = (0, 0);
        for ex in examples(md) {
            // One buffer for both streams keeps their order.
            let buf = std::cell::RefCell::new(Vec::new());
            let _ = super::entry(&ex.input, &mut session, &mut Shared(&buf), &mut Shared(&buf));
            let buf = buf.into_inner();
            let got = String::from_utf8_lossy(&buf).into_owned();
            if trim_trailing_blank(&got) == trim_trailing_blank(&ex.expected) {
                passed += 1;
            } else {
                failed += 1;
                let _ = writeln!(report, "{name}:{}: cute> {}", ex.line, ex.input.replace('\n', "\n      "));
                let _ = writeln!(report, "{}", diff(trim_trailing_blank(&ex.expected), trim_trailing_blank(&got)));
            }
        }
        (passed, failed)
    }

    use std::io::Write;

    /// A writer that appends to a shared buffer.
    struct Shared<'a>(&'a std::cell::RefCell<Vec<u8>>);
    impl Write for Shared<'_> {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A line diff: `-` expected lines, `+` actual lines, ` ` common ones (LCS).
    pub fn diff(expected: &str, got: &str) -> String {
        let a: Vec<&str> = expected.lines().collect();
        let b: Vec<&str> = got.lines().collect();
        let (n, m) = (a.len(), b.len());
        let mut out = String::new();
        if n * m > 1_000_000 {
            for l in &a {
                out.push_str(&format!("-{l}\n"));
            }
            for l in &b {
                out.push_str(&format!("+{l}\n"));
            }
            return out;
        }
        let mut lcs = vec![vec![0usize; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && a[i] == b[j] {
                out.push_str(&format!(" {}\n", a[i]));
                i += 1;
                j += 1;
            } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
                out.push_str(&format!("-{}\n", a[i]));
                i += 1;
            } else {
                out.push_str(&format!("+{}\n", b[j]));
                j += 1;
            }
        }
        if out.is_empty() {
            out.push_str("(both empty)\n");
        }
        out
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn finds_examples() {
            let md = "text\n```cute\ncute> a = 1\ncute> a\n1\n\ncute> b\nerror: x\n```\n```rust\ncute> no\n```\n~~~cute\ncute> c\n~~~\n";
            let ex = examples(md);
            assert_eq!(ex.len(), 4);
            assert_eq!(ex[0], Example { line: 3, input: "a = 1".into(), expected: "".into() });
            assert_eq!(ex[1], Example { line: 4, input: "a".into(), expected: "1\n\n".into() });
            assert_eq!(ex[2].expected, "error: x\n");
            assert_eq!(ex[3].line, 14);
        }

        #[test]
        fn diffs() {
            assert_eq!(diff("a\nb\nc", "a\nx\nc"), " a\n-b\n+x\n c\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_commands_and_vars() {
        let mut h = CuteHelper::new(false);
        h.vars = vec!["Alpha".into(), "Beta".into()];
        assert_eq!(h.candidates(":he", 3), (0, vec![":help".to_string()]));
        assert_eq!(h.candidates("x = Al", 6), (4, vec!["Alpha".to_string()]));
        assert_eq!(h.candidates("LayoutL", 7).1, vec!["LayoutLeft".to_string()]);
        assert_eq!(h.candidates("(_1", 3).1, Vec::<String>::new());
        assert_eq!(h.candidates("expl", 4).1, vec!["explain".to_string()]);
        assert_eq!(h.candidates("a = 1; expl", 11).1, vec!["explain".to_string()]);
        assert!(!h.candidates("size(expl", 9).1.contains(&"explain".to_string()));
    }

    #[test]
    fn highlight_keeps_text() {
        let s = "assert size(L) == _8 # c";
        let h = highlight_input(s);
        let stripped: String = {
            let mut out = String::new();
            let mut esc = false;
            for c in h.chars() {
                if c == '\x1b' {
                    esc = true;
                } else if esc {
                    if c == 'm' {
                        esc = false;
                    }
                } else {
                    out.push(c);
                }
            }
            out
        };
        assert_eq!(stripped, s);
    }

    #[test]
    fn help_texts() {
        assert!(overview().contains(":save"));
        assert!(help_for(":vars").is_ok());
        assert!(help_for("no_such_fn").is_err());
    }

    #[test]
    fn history_location() {
        // Only checks the shape of the path; the variables are read, not set.
        if let Some(p) = history_path() {
            assert!(p.ends_with("cute/history"));
        }
    }
}
