//! Reading the oracle's JSON Lines (`{"expr": "...", "cute": "..."}`): flat objects of strings.
//! Used by the conformance and regression tests; no JSON crate is needed for this.

/// The value of the string field `"key": "..."` in one JSON line, unescaped.
pub fn field(line: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\": \"");
    let start = line.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                other => out.push(other), // \" \\ \/
            },
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn unescapes() {
        let l = r#"{"expr": "a\"b", "cute": "x\ny\u0041\\"}"#;
        assert_eq!(super::field(l, "expr").as_deref(), Some("a\"b"));
        assert_eq!(super::field(l, "cute").as_deref(), Some("x\nyA\\"));
        assert_eq!(super::field(l, "error"), None);
    }
}
