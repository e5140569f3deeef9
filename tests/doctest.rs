//! `cute --doctest FILE.md ...`: the ```cute blocks of Markdown files are checked; and the
//! README and every file in `docs/` pass.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn temp_md(text: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir =
        std::env::temp_dir().join(format!("cute-doctest-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join("doc.md");
    std::fs::write(&p, text).expect("write");
    p
}

fn doctest(files: &[&Path]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_cute"))
        .arg("--doctest")
        .args(files)
        .env_remove("NO_COLOR")
        .output()
        .expect("run cute");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const GOOD: &str = "# Title

Some text.

```cute
cute> A = (2,4):(1,2)
cute> A
(2,4):(1,2)
cute> identical(8, _8)
_0

cute> (1,
2)
(1,2)
```

Bindings carry over to the next block; errors are part of the output:

```cute
cute> A
(2,4):(1,2)
cute> nosuch
error: unknown name: 'nosuch'
 --> <repl>:1:1
  |
1 | nosuch
  | ^^^^^^
cute> _
(2,4):(1,2)
cute> :vars
A = (2,4):(1,2)
```

```rust
cute> not checked
```
";

#[test]
fn passing_file() {
    let p = temp_md(GOOD);
    let (code, out, err) = doctest(&[&p]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "8 passed, 0 failed\n", ""));
}

#[test]
fn mismatch_reports_file_line_and_diff() {
    let p = temp_md("```cute\ncute> x = 3\ncute> x\n4\ncute> x\n3\n```\n");
    let (code, out, _) = doctest(&[&p]);
    assert_eq!(code, 1);
    let name = p.to_str().unwrap();
    assert_eq!(out, format!("{name}:3: cute> x\n-4\n+3\n\n2 passed, 1 failed\n"));
}

#[test]
fn several_files_and_missing_file() {
    let a = temp_md(GOOD);
    let b = temp_md("```cute\ncute> 1\n1\n```\n");
    let (code, out, _) = doctest(&[&a, &b]);
    assert_eq!((code, out.as_str()), (0, "9 passed, 0 failed\n"));
    let (code, _, err) = doctest(&[Path::new("/nonexistent.md")]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"));
}

/// The README and every Markdown file in `docs/` are doctested.
#[test]
fn readme_and_docs_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    if let Ok(rd) = std::fs::read_dir(root.join("docs")) {
        let mut docs: Vec<PathBuf> =
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
        docs.sort();
        files.extend(docs);
    }
    let files: Vec<PathBuf> = files.into_iter().filter(|p| p.exists()).collect();
    if files.is_empty() {
        return;
    }
    let refs: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let (code, out, err) = doctest(&refs);
    assert_eq!(code, 0, "{out}{err}");
}

/// Every entry of the registry (the source of `:help`, completion and the README's function
/// table) has a signature, a doc line and an example whose output is the recorded CuTe result.
#[test]
fn registry_examples_print_their_results() {
    use cute::session::{Options, Session};
    let mut failures = Vec::new();
    for b in cute::registry::documented() {
        if b.sig.is_empty() || b.doc.is_empty() || b.example.is_empty() {
            failures.push(format!("{}: missing signature, doc or example", b.name));
            continue;
        }
        let mut s = Session::new(Options::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        s.run(b.example, "<example>", &mut out, &mut err);
        let got = String::from_utf8_lossy(&out);
        let got = got.trim_end_matches('\n');
        if got != b.result || String::from_utf8_lossy(&err).contains("error") {
            failures.push(format!(
                "{}: {}\n  want: {}\n  got:  {got}\n{}",
                b.name,
                b.example,
                b.result,
                String::from_utf8_lossy(&err)
            ));
        }
    }
    assert!(failures.is_empty(), "{} registry examples fail:\n{}", failures.len(), failures.join("\n"));
}
