//! The surface syntax: pest grammar (`grammar/cute.pest`) → spanned AST. Parses only.
pub mod ast;
