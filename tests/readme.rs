//! The README's function table is the registry's (`cute --function-table`), so help, completion
//! and the documentation cannot drift apart. `CUTE_BLESS=1 cargo test --test readme` rewrites it.

use std::process::Command;

#[test]
fn readme_function_table_is_current() {
    let path = format!("{}/README.md", env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let (begin, end) = ("<!-- functions:begin -->\n", "<!-- functions:end -->");
    let b = readme.find(begin).expect("functions:begin marker") + begin.len();
    let e = readme.find(end).expect("functions:end marker");
    let out = Command::new(env!("CARGO_BIN_EXE_cute")).arg("--function-table").output().expect("run cute");
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).expect("utf-8");
    if std::env::var_os("CUTE_BLESS").is_some() {
        let new = format!("{}{}{}", &readme[..b], table, &readme[e..]);
        std::fs::write(&path, new).expect("write README.md");
        return;
    }
    assert!(readme[b..e] == table, "README.md's function table is stale: run CUTE_BLESS=1 cargo test --test readme");
}

#[test]
fn readme_first_screen_names_the_two_commands() {
    let readme = std::fs::read_to_string(format!("{}/README.md", env!("CARGO_MANIFEST_DIR"))).expect("README.md");
    let first: String = readme.lines().take(20).collect::<Vec<_>>().join("\n");
    assert!(first.contains("cargo run --release -- scripts/tour.cute"));
    assert!(first.contains("cargo test --release"));
    let ci = std::fs::read_to_string(format!("{}/.ci/run", env!("CARGO_MANIFEST_DIR"))).expect(".ci/run");
    assert!(ci.lines().any(|l| l.trim() == "cargo test --release"), ".ci/run must call the README's test command");
}
