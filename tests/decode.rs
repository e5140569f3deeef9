//! `cute --decode` proved on real compiler output: `tests/decode/*.txt` are g++ messages for
//! cases CuTe refuses (`regenerate.sh` makes them from `cases.list` with the oracle's C++ and
//! the CuTe 4.2 headers), `handwritten.types` holds types written by hand from CuTe's headers,
//! one kind after another, each with the notation it decodes to.
//!
//! Every decoded type, fed back as notation (`?` given the value 3), must evaluate to a value
//! whose `cpp(...)` has exactly the original type: one C++ program of `static_assert(is_same)`s,
//! compiled against CuTe's headers. Types the notation cannot state (MixedBits offsets, counting
//! tensors and their iterators) and `integral_constant<int, N>` / `C<true>` (which CuTe's `C<N>`
//! only prints like) are decoded but not fed back; a run-time `long` comes back as an `int`.

mod cxx;

use cute::decode::{decode, find, Ty};
use cute::render::cpp::cpp;
use cute::session::{Options, Session};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/decode")
}

/// The compiler messages of the corpus: (file name, text).
fn corpus() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    v.sort();
    assert!(v.len() >= 10, "the corpus is missing: run tests/decode/regenerate.sh");
    v
}

/// (type, the notation it decodes to) from `handwritten.types`.
fn handwritten() -> Vec<(String, String)> {
    std::fs::read_to_string(dir().join("handwritten.types"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (t, n) = l.split_once(" => ").unwrap_or_else(|| panic!("no ` => ` in {l}"));
            (t.trim().to_string(), n.trim().to_string())
        })
        .collect()
}

#[test]
fn corpus_types_are_decoded_and_the_rest_kept() {
    let mut total = 0;
    for (name, text) in corpus() {
        let found = find(&text);
        assert!(!found.is_empty(), "{name}: no CuTe type found");
        total += found.len();
        // the text between the types is kept byte for byte
        let out = decode(&text);
        let mut rebuilt = String::new();
        let mut at = 0;
        for (r, t) in &found {
            rebuilt.push_str(&text[at..r.start]);
            rebuilt.push_str(&t.to_string());
            at = r.end;
        }
        rebuilt.push_str(&text[at..]);
        assert_eq!(out, rebuilt, "{name}");
        // every CuTe integer and tuple of the messages was recognised
        for left in ["cute::C<", "cute::tuple<", "cute::Layout<", " C<", "<C<"] {
            assert!(!out.contains(left), "{name}: `{left}` left undecoded:\n{}", out.lines().find(|l| l.contains(left)).unwrap());
        }
    }
    eprintln!("decode: {total} types in the corpus");
}

#[test]
fn handwritten_types_decode_to_their_notation() {
    let mut bad = Vec::new();
    for (t, want) in handwritten() {
        let got = decode(&t);
        if got != want {
            bad.push(format!("{t}\n  want {want}\n  got  {got}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn text_that_is_not_a_cute_type_is_left_alone() {
    for t in [
        "error: 'x' was not declared in this scope; int main() { return 0; }",
        "std::vector<int, std::allocator<int> > and std::tuple<int, long>",
        "note: cute::Layout<cute::tuple<cute::C<8>, cute::C<8",
        "cute::Layout<foo::Bar<1>, int>",
        "a Layout, a Tile and a tuple",
        "unicode: ✓ é",
    ] {
        assert_eq!(decode(t), t);
    }
}

/// The notation of a decoded type, `?` given a value, when the notation can state the type.
fn as_notation(t: &Ty, original: &str) -> Option<String> {
    if !t.in_notation() || original.contains("integral_constant") || original.contains("true") || original.contains("false") {
        return None;
    }
    Some(t.to_string().replace('?', "3"))
}

#[test]
fn decoded_types_come_back_through_cpp() {
    let mut types: Vec<(String, Ty)> = Vec::new();
    for (_, text) in corpus() {
        for (r, t) in find(&text) {
            types.push((text[r].to_string(), t));
        }
    }
    for (t, _) in handwritten() {
        for (r, ty) in find(&t) {
            types.push((t[r].to_string(), ty));
        }
    }
    let mut seen = std::collections::HashSet::new();
    types.retain(|(s, _)| seen.insert(s.clone()));
    let (mut asserts, mut skipped, mut refused) = (Vec::new(), 0, Vec::new());
    for (orig, ty) in &types {
        let Some(notation) = as_notation(ty, orig) else {
            skipped += 1;
            continue;
        };
        let mut s = Session::new(Options::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        s.run(&notation, "<decoded>", &mut out, &mut err);
        let err = String::from_utf8_lossy(&err).to_string();
        let v = match s.interp().last() {
            Some(v) if !err.contains("error") => v.clone(),
            _ => {
                refused.push(format!("{orig}\n  as {notation}: {}", err.lines().next().unwrap_or("")));
                continue;
            }
        };
        let expr = cpp(&v).unwrap_or_else(|e| panic!("{notation}: {e}"));
        // a run-time integer of cute is an int
        let want = ["long unsigned int", "long long int", "long int", "unsigned int", "long"]
            .iter()
            .fold(orig.clone(), |acc, w| acc.replace(w, "int"));
        asserts.push(format!("// {notation}\nstatic_assert(std::is_same_v<decltype({expr}), {want}>);\n"));
    }
    // a decoded type CuTe's own headers cannot build (the refused cases) may be refused by cute too,
    // with CuTe's rule; nothing else may be
    for r in &refused {
        assert!(
            r.contains("TiledCopy uses too few") || r.contains("requires") || r.contains("CopyOperation is not valid"),
            "cute refuses a decoded type:\n{r}"
        );
    }
    let cxx = cxx::Cxx::new();
    let failures = cxx.check_asserts(&asserts);
    eprintln!(
        "decode: {} distinct types, {} compiled back, {skipped} not in the notation, {} refused as CuTe refuses them",
        types.len(),
        asserts.len(),
        refused.len()
    );
    assert!(failures.is_empty(), "{} types do not come back:\n{}", failures.len(), failures.join("\n"));
}
