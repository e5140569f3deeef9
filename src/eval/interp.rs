//! (stub) Walks the AST, calls built-ins, attaches spans to errors.
