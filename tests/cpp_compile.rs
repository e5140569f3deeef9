//! `cpp(x)` proved by compiling it: for every value of the golden files (CuTe's own answers,
//! `tests/oracle/golden*.jsonl`; also `tensor_modes_cases.jsonl`, whose tensors and layouts have
//! `uint32_t` offsets and iterators) and a few hundred random values (counting tensors, iterators
//! and MixedBits offsets among them), the C++ that `cpp(x)` prints
//! is compiled with g++ against the CuTe headers of the `nvidia-cutlass==4.2.0.0` wheel, run,
//! and what CuTe prints for it must be exactly what `cute` prints for x.
//!
//! The headers are the oracle's, fetched once when missing (`tests/cxx/mod.rs`). Many values
//! share one program (one compile costs seconds); two compiles run at a time.

mod cxx;

use cute::eval::value::Value;
use cute::jsonl::field;
use cute::render::cpp::cpp;
use cute::session::{Options, Session};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Values per C++ program.
const BATCH: usize = 120;
const RANDOM_VALUES: usize = 300;
/// Random counting tensors, iterators and MixedBits offsets (a generator of their own, so that
/// the 300 values above stay what they were).
const RANDOM_TENSORS: usize = 80;

/// One value to check: where it came from, its C++ and what `cute` prints for it.
struct Case {
    origin: String,
    cpp: String,
    want: String,
}

/// The value of the last expression of `src`, or None if `cute` refuses it.
fn eval(src: &str) -> Option<Value> {
    let mut s = Session::new(Options::default());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    s.run(src, "<case>", &mut out, &mut err);
    if String::from_utf8_lossy(&err).contains("error") {
        return None;
    }
    s.interp().last().cloned()
}

/// Values CuTe prints that are worth a C++ program (not tables, not bare operation types).
fn printable(v: &Value) -> bool {
    match v {
        Value::Text(_) | Value::Tag(_) => false,
        Value::Atom(a) => a.check_printable().is_ok(),
        _ => true,
    }
}

fn golden_cases(skipped: &mut Vec<String>) -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        // the golden files (as the module says): the 23k random difftest cases would take CI ten
        // minutes; and the tensors and layouts whose offsets or iterators are `uint32_t`s
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with("golden") || n == "tensor_modes_cases.jsonl"
            })
        })
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.contains("\"error\": ") || line.trim().is_empty() {
                continue;
            }
            let expr = field(line, "expr").expect("expr");
            let origin = format!("{}:{}: {expr}", f.file_name().unwrap().to_string_lossy(), n + 1);
            match eval(&expr) {
                Some(v) if printable(&v) => match cpp(&v) {
                    Ok(c) => cases.push(Case { origin, cpp: c, want: v.to_string() }),
                    Err(e) => panic!("{origin}: cpp refused {v}: {e}"),
                },
                _ => skipped.push(origin),
            }
        }
    }
    cases
}

/// A small deterministic generator (xorshift) of notation for values of every kind.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn int(&mut self, vals: &[i64]) -> String {
        let v = vals[self.below(vals.len() as u64) as usize];
        if self.below(3) == 0 {
            format!("{v}")
        } else {
            format!("_{v}")
        }
    }
    /// A shape and a congruent stride.
    fn shape_stride(&mut self, depth: u32) -> (String, String) {
        if depth == 0 || self.below(3) == 0 {
            return (self.int(&[1, 2, 3, 4, 8, 16]), self.int(&[0, 1, 2, 3, 4, 8, 16, 32, -1]));
        }
        let n = 1 + self.below(3);
        let (s, d): (Vec<_>, Vec<_>) = (0..n).map(|_| self.shape_stride(depth - 1)).unzip();
        (format!("({})", s.join(",")), format!("({})", d.join(",")))
    }
    fn layout(&mut self) -> String {
        let (s, d) = self.shape_stride(2);
        match self.below(4) {
            0 => format!("make_layout({s})"),
            1 => format!("make_layout({s}, LayoutRight)"),
            _ => format!("{s}:{d}"),
        }
    }
    fn value(&mut self) -> String {
        match self.below(12) {
            0 => self.shape_stride(3).0,
            1 => format!("Sw<{},{},{}>", self.below(4), self.below(5), 1 + self.below(4)),
            2 => format!("Sw<{},{},{}> o {}", 1 + self.below(3), self.below(4), 3, self.layout()),
            3 => format!("make_composed_layout(Sw<2,3,3>, {}, {})", self.int(&[0, 8, 64]), self.layout()),
            4 => format!("<{},{}>", self.layout(), self.int(&[2, 4])),
            5 => format!("make_identity_layout({})", self.shape_stride(2).0),
            6 => format!("coalesce({})", self.layout()),
            7 => format!("composition({}, {})", self.layout(), self.layout()),
            8 => format!("logical_divide({}, <{},_>)", self.layout(), self.int(&[1, 2, 4])),
            9 => format!("(Sw<3,3,3> o (_8,_64):(_64,_1))(_, {})", self.int(&[1, 3, 8, 16])),
            10 => format!("right_inverse({})", self.layout()),
            _ => self.layout(),
        }
    }
}

impl Gen {
    /// A counting tensor or iterator (`make_identity_tensor`, `make_coord_tensor`, CuTe's print
    /// forms `ArithTuple(..) o L`, slices of them), or a composed layout with a MixedBits offset.
    fn tensor(&mut self) -> String {
        let coord = |g: &mut Gen| match g.below(3) {
            0 => g.int(&[0, 3, 17, -5]),
            1 => format!("({},{})", g.int(&[0, 2, 9]), g.int(&[0, 1, 4])),
            _ => format!("({},({},{}))", g.int(&[0, 5]), g.int(&[0, 2]), g.int(&[0, 7])),
        };
        match self.below(9) {
            0 => format!("make_identity_tensor({})", self.shape_stride(2).0),
            1 => format!("make_coord_tensor({})", self.layout()),
            2 => format!("ArithTuple{} o {}", self.int(&[0, 5, 145]), self.layout()),
            3 => format!(
                "ArithTuple({},{}) o make_identity_layout({})",
                self.int(&[0, 3]),
                self.int(&[0, 1]),
                self.shape_stride(1).0
            ),
            4 => format!("make_inttuple_iter({})", coord(self)),
            5 => format!(
                "T = make_identity_tensor(({},{})); T(_, {})",
                self.int(&[2, 4]),
                self.int(&[4, 8]),
                self.int(&[0, 1, 3])
            ),
            6 => format!("make_tensor(make_inttuple_iter({}), {})", coord(self), self.layout()),
            7 => {
                let f = [8u32, 64, 400, 448][self.below(4) as usize];
                let d = f & [0u32, 16, 64, 144, 400][self.below(5) as usize];
                format!("Sw<3,3,3> o M_0|({d}&{f})={d} o {}", self.layout())
            }
            _ => format!("ArithTuple_0 o Sw<{},3,3> o _0 o {}", 1 + self.below(3), self.layout()),
        }
    }
}

/// `n` values of the notation `next` draws from a generator seeded with `seed` (the ones `cute`
/// refuses or that have no print are drawn again).
fn random_cases(seed: u64, n: usize, what: &str, next: fn(&mut Gen) -> String) -> Vec<Case> {
    let mut g = Gen(seed);
    let mut cases = Vec::new();
    let mut tries = 0;
    while cases.len() < n && tries < 20 * n {
        tries += 1;
        let src = next(&mut g);
        if let Some(v) = eval(&src) {
            if printable(&v) {
                let c = cpp(&v).unwrap_or_else(|e| panic!("{src}: cpp refused {v}: {e}"));
                cases.push(Case { origin: format!("{what}: {src}"), cpp: c, want: v.to_string() });
            }
        }
    }
    cases
}

fn program(cases: &[&Case]) -> String {
    let mut s = String::from("int main() {\n");
    for (k, c) in cases.iter().enumerate() {
        s.push_str(&format!(
            "  // {}\n  {{ std::printf(\"\\n@@BEGIN {k}@@\\n\"); auto v = {}; print(v); std::printf(\"\\n@@END {k}@@\\n\"); }}\n",
            c.origin.replace('\n', " "),
            c.cpp
        ));
    }
    s.push_str("  return 0;\n}\n");
    s
}

/// Compile and run one batch; failures as messages. A batch that does not compile is split
/// until the failing values are alone.
fn check_batch(cases: &[&Case], cxx: &cxx::Cxx, work: &Path, tag: &str) -> Vec<String> {
    let bin = work.join(tag);
    if let Err(err) = cxx.compile(&program(cases), &work.join(format!("{tag}.cpp")), Some(&bin)) {
        if cases.len() == 1 {
            let first: Vec<&str> = err.lines().filter(|l| l.contains("error")).take(3).collect();
            return vec![format!(
                "{}\n  C++: {}\n  does not compile: {}",
                cases[0].origin,
                cases[0].cpp,
                first.join("\n    ")
            )];
        }
        let (a, b) = cases.split_at(cases.len() / 2);
        let mut v = check_batch(a, cxx, work, &format!("{tag}a"));
        v.extend(check_batch(b, cxx, work, &format!("{tag}b")));
        return v;
    }
    let run = Command::new(&bin).output().expect("run the compiled program");
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    let _ = std::fs::remove_file(&bin);
    let mut failures = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        let (b, e) = (format!("\n@@BEGIN {k}@@\n"), format!("\n@@END {k}@@\n"));
        let got = stdout.split_once(&b).and_then(|(_, rest)| rest.split_once(&e)).map(|(g, _)| g);
        match got {
            // CuTe's multi-line prints end in a newline (the oracle strips them too)
            Some(g) if g.trim_end_matches('\n') == c.want => {}
            Some(g) => failures.push(format!("{}\n  C++:  {}\n  CuTe: {g}\n  cute: {}", c.origin, c.cpp, c.want)),
            None => failures.push(format!("{}\n  C++: {}\n  no output (status {})", c.origin, c.cpp, run.status)),
        }
    }
    failures
}

#[test]
fn cpp_of_golden_and_random_values_compiles_and_prints_the_same() {
    let t0 = std::time::Instant::now();
    let cxx = cxx::Cxx::new();
    let mut skipped = Vec::new();
    let mut cases = golden_cases(&mut skipped);
    let n_golden = cases.len();
    let mut random = random_cases(0x9e37_79b9_7f4a_7c15, RANDOM_VALUES, "random", Gen::value);
    random.extend(random_cases(0x2545_f491_4f6c_dd1d, RANDOM_TENSORS, "random tensor", Gen::tensor));
    let n_random = random.len();
    cases.extend(random);
    let work = cxx::work_dir();
    // the same C++ once
    let mut seen = std::collections::HashSet::new();
    cases.retain(|c| seen.insert(c.cpp.clone()));
    let batches: Vec<Vec<&Case>> = cases.chunks(BATCH).map(|c| c.iter().collect()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(b) = batches.get(i) else { break };
                let f = check_batch(b, &cxx, &work, &format!("batch{i}"));
                failures.lock().unwrap().extend(f);
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    eprintln!(
        "cpp_compile: {n_golden} golden + {n_random} random values ({} distinct C++) in {} programs, \
         {} golden records without a value, {:.1} s",
        cases.len(),
        batches.len(),
        skipped.len(),
        t0.elapsed().as_secs_f64()
    );
    let _ = std::fs::write(work.join("failures.txt"), failures.join("\n"));
    assert!(failures.is_empty(), "{} values:\n{}", failures.len(), failures.join("\n"));
}
