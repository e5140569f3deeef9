//! `cute --decode` proved on real compiler output: `tests/decode/*.txt` are g++, clang
//! (`clang_*`) and nvcc (`nvcc_*`) messages for cases CuTe refuses (`regenerate.sh
//! [g++|clang|nvcc]` makes them from `cases.list` with the oracle's C++ and the CuTe 4.2
//! headers), `handwritten.types` holds types written by hand from CuTe's headers, one kind after
//! another, each with the notation it decodes to.
//!
//! Every decoded type, fed back as notation (`?` given the value 3, a MixedBits' run-time bits
//! 0), must evaluate to a value whose `cpp(...)` has exactly the original type: one C++ program
//! of `static_assert(is_same)`s, compiled against CuTe's headers (MixedBits offsets, counting
//! tensors and their iterators included: `M_0|(144&400)=144`, `ArithTuple(_0,_0) o L` read
//! back). g++ names an atom by its base class (`MMA_Atom<MMA_Traits<Op>>`): the atom `cpp`
//! builds must derive from it. Types that only print like the type the notation stands for
//! (`integral_constant<int, N>`, `C<true>`, `C<8u>`, a `ScaledBasis` of no modes) are decoded
//! but not fed back, each listed with its reason; a run-time `long` comes back as an `int`.

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
    let mut per_compiler = std::collections::BTreeMap::new();
    for (name, text) in corpus() {
        let found = find(&text);
        // clang names no type in some messages (`no matching function for call to 'tile_size'`):
        // such a file comes back unchanged, and the check below finds no CuTe integer left in it
        *per_compiler
            .entry(["clang", "nvcc"].into_iter().find(|c| name.starts_with(&format!("{c}_"))).unwrap_or("g++"))
            .or_insert(0) += found.len();
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
        // every CuTe integer and swizzle of the messages was recognised (what is left are
        // template parameters: `cute::tuple<T ...>`, `C<N>`, `Swizzle<B,M,S>`)
        for left in ["cute::C<", " C<", "<C<", "(C<", "Swizzle<"] {
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
    for c in ["g++", "clang", "nvcc"] {
        assert!(
            per_compiler.get(c).copied().unwrap_or(0) >= 10,
            "{c}: too few types in its messages: {per_compiler:?}"
        );
    }
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

/// Why a decoded type is not fed back: it only prints like the type the notation stands for.
fn prints_like(t: &Ty, original: &str) -> Option<&'static str> {
    fn modeless_basis(t: &Ty) -> bool {
        match t {
            Ty::Basis(_, modes) => modes.is_empty(),
            Ty::Tuple(v) => v.iter().any(modeless_basis),
            Ty::Layout(a, b) | Ty::Tensor(a, b) => modeless_basis(a) || modeless_basis(b),
            Ty::Composed(a, o, b) | Ty::TiledCopy(a, o, b) => {
                modeless_basis(a) || modeless_basis(o) || modeless_basis(b)
            }
            Ty::Iter(c) => modeless_basis(c),
            Ty::TiledMma(_, l, p) => modeless_basis(l) || modeless_basis(p),
            _ => false,
        }
    }
    if original.contains("integral_constant") {
        return Some("integral_constant<int, N> prints as C<N>: the notation's static integers are C<N>");
    }
    if original.contains("true") || original.contains("false") {
        return Some(
            "C<true>/C<false> are bool constants printed _1/_0: the notation's static integers are C<N> of int",
        );
    }
    if original.as_bytes().windows(2).any(|w| w[0].is_ascii_digit() && b"uUlL".contains(&w[1])) {
        return Some("C<8u> (an unsigned constant) prints as C<8>: the notation's static integers are C<N> of int");
    }
    if modeless_basis(t) {
        return Some("ScaledBasis<C<1>> (no modes: make_identity_layout of an integer) prints as _1, the integer");
    }
    None
}

/// The notation of a decoded type, `?` given a value.
fn as_notation(t: &Ty) -> String {
    // a MixedBits' run-time bits D (and its value S|D) get the value 0, valid for every F
    let mut n = t.to_string();
    while let Some(k) = n.find("|(?&") {
        let start = n[..k].rfind("M_").expect("M_S|(?&F)=?");
        let end = k + n[k..].find(")=?").expect("M_S|(?&F)=?");
        let (s, f) = (n[start + 2..k].to_string(), n[k + 4..end].to_string());
        n = format!("{}M_{s}|(0&{f})={s}{}", &n[..start], &n[end + 3..]);
    }
    n.replace('?', "3")
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
    let (mut asserts, mut skipped, mut bases, mut refused) = (Vec::new(), 0, 0, Vec::new());
    for (orig, ty) in &types {
        if let Some(why) = prints_like(ty, orig) {
            skipped += 1;
            eprintln!("not fed back: {orig}\n  decodes to {ty}: {why}");
            continue;
        }
        let notation = as_notation(ty);
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
        // g++ names an atom by its base class MMA_Atom<MMA_Traits<Op>> (Copy_Atom<Copy_Traits<Op>, T>):
        // the atom cpp builds derives from it
        let check = if orig.contains("MMA_Traits<") || orig.contains("Copy_Traits<") {
            bases += 1;
            format!("std::is_base_of_v<{want}, decltype({expr})>")
        } else {
            format!("std::is_same_v<decltype({expr}), {want}>")
        };
        asserts.push(format!("// {notation}\nstatic_assert({check});\n"));
    }
    // a type of a refused case (one CuTe's headers reject, such as `Swizzle<3,3,2>`) may be
    // refused by cute too; it parses, and the refusal is listed
    for r in &refused {
        eprintln!("refused (as CuTe refuses it): {r}");
    }
    let cxx = cxx::Cxx::new();
    let failures = cxx.check_asserts(&asserts);
    eprintln!(
        "decode: {} distinct types, {} compiled back ({bases} as the atom derived from the type), {skipped} not fed back (print like another type), {} refused as CuTe refuses them",
        types.len(),
        asserts.len(),
        refused.len()
    );
    assert!(failures.is_empty(), "{} types do not come back:\n{}", failures.len(), failures.join("\n"));
}
