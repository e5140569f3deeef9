//! `cute --decode` proved on real compiler output: `tests/decode/*.txt` are g++ messages for
//! cases CuTe refuses (`regenerate.sh` makes them from `cases.list` with the oracle's C++ and
//! the CuTe 4.2 headers), `handwritten.types` holds types written by hand from CuTe's headers,
//! one kind after another, each with the notation it decodes to.
//!
//! Every decoded type, fed back as notation (`?` given the value 3), must evaluate to a value
//! whose `cpp(...)` has exactly the original type: one C++ program of `static_assert(is_same)`s,
//! compiled against CuTe's headers. Types the notation cannot state (MixedBits offsets, counting
//! tensors and their iterators) and types that only print like the type `cpp` writes
//! (`integral_constant<int, N>`, `C<true>`, `C<8u>`, `MMA_Atom<MMA_Traits<Op>>`) are decoded but
//! not fed back; a run-time `long` comes back as an `int`.

mod cxx;

use cute::decode::{decode, find, Ty};
use cute::render::cpp::cpp;
use cute::session::{Options, Outcome, Session};
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
        // every CuTe integer of the messages was recognised (what is left are template
        // parameters: `cute::tuple<T ...>`, `C<N>`)
        for left in ["cute::C<", " C<", "<C<", "(C<"] {
            for (k, _) in out.match_indices(left) {
                let next = out[k + left.len()..].chars().next();
                assert!(
                    !next.is_some_and(|c| c.is_ascii_digit() || c == '-'),
                    "{name}: `{left}` left undecoded: {}",
                    &out[k..(k + 80).min(out.len())]
                );
            }
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
        "note: cute::Layout<cute::tuple<int, long",
        "cute::Layout<foo::Bar<1>, int>",
        "a Layout, a Tile and a tuple",
        "unicode: ✓ é",
    ] {
        assert_eq!(decode(t), t);
    }
}

/// The notation of a decoded type, `?` given a value, when the notation can state the type.
fn as_notation(t: &Ty, original: &str) -> Option<String> {
    // types CuTe's own ones only print like: integral_constant<int, N> and C<true> print as C<N>,
    // C<8u> as C<8>, MMA_Atom<MMA_Traits<Op>> (a base) as MMA_Atom<Op>
    let like = ["integral_constant", "true", "false", "MMA_Traits<", "Copy_Traits<"];
    let suffix = original.as_bytes().windows(2).any(|w| w[0].is_ascii_digit() && b"uUlL".contains(&w[1]));
    if !t.in_notation() || like.iter().any(|w| original.contains(w)) || suffix {
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
        let outcome = s.run(&notation, "<decoded>", &mut out, &mut err);
        let err = String::from_utf8_lossy(&err).to_string();
        assert!(outcome != Outcome::ParseError, "{orig}\n  decodes to {notation}, which does not parse:\n{err}");
        let v = match s.interp().last() {
            Some(v) if outcome == Outcome::Ok => v.clone(),
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
    // a type of a refused case (one CuTe's headers reject, such as `Swizzle<3,3,2>`) may be
    // refused by cute too; it parses, and the refusal is listed
    for r in &refused {
        eprintln!("refused (as CuTe refuses it): {r}");
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
