//! The time limit of one statement: the session starts a clock before each statement
//! ([`start`]); the evaluator's loops and recursions call [`tick`], which fails with a `Limit`
//! error naming the limit once the statement has run past it. Per thread (a session may run on
//! its big-stack thread), like the warnings of `error`. Also the size limit of pictures
//! (`CUTE_PRINT_LIMIT`), which every printer checks before it draws.
//! May import: `eval::error` only.

use super::error::{ErrorKind, EvalError, R};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// The default time limit of one statement.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Ticks between two looks at the clock (`Instant::now` costs about 20 ns; a tick about 1 ns).
const TICKS_PER_LOOK: u32 = 1 << 10;

/// A session's time limit of one statement (`None`: none); [`DEFAULT_TIME_LIMIT`] by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimit(pub Option<Duration>);

impl Default for TimeLimit {
    fn default() -> Self {
        TimeLimit(Some(DEFAULT_TIME_LIMIT))
    }
}

/// `10 s`, `none`.
impl std::fmt::Display for TimeLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(d) => write!(f, "{}", show(d)),
            None => write!(f, "none"),
        }
    }
}

/// The running statement's clock.
#[derive(Clone, Copy)]
enum Clock {
    /// No time limit.
    Off,
    /// A limit, the clock not yet read: it is read first at the statement's first look, after
    /// [`TICKS_PER_LOOK`] steps (most statements end sooner and never read it; reading it for
    /// each of them took a tenth of a script's time, and those steps take microseconds).
    Limit(Duration),
    /// When the statement must stop, and its limit (for the message).
    Until(Instant, Duration),
}

thread_local! {
    static CLOCK: Cell<Clock> = const { Cell::new(Clock::Off) };
    static TICKS: Cell<u32> = const { Cell::new(0) };
}

/// Start the clock of a statement that may run `limit` (`None`: no limit).
#[inline]
pub fn start(limit: Option<Duration>) {
    CLOCK.with(|c| c.set(limit.map_or(Clock::Off, Clock::Limit)));
    TICKS.with(|t| t.set(0));
}

/// One step of work: an error once the running statement is past its time limit.
#[inline]
pub fn tick() -> R<()> {
    let n = TICKS.with(|t| {
        let n = t.get().wrapping_add(1);
        t.set(n);
        n
    });
    if !n.is_multiple_of(TICKS_PER_LOOK) {
        return Ok(());
    }
    check()
}

#[cold]
fn check() -> R<()> {
    let (end, limit, now) = match CLOCK.with(Cell::get) {
        Clock::Off => return Ok(()),
        Clock::Limit(limit) => {
            let now = Instant::now();
            CLOCK.with(|c| c.set(Clock::Until(now + limit, limit)));
            (now + limit, limit, now)
        }
        Clock::Until(end, limit) => (end, limit, Instant::now()),
    };
    if now >= end {
        return Err(time_limit(limit));
    }
    Ok(())
}

/// The error of a statement that ran past `limit`.
pub fn time_limit(limit: Duration) -> EvalError {
    EvalError::new(
        ErrorKind::Limit,
        "time limit",
        format!(
            "the statement ran longer than {}; raise the limit with `--time-limit SECONDS` \
             (in the REPL `:time-limit SECONDS`; 0 means no limit)",
            show(limit)
        ),
    )
}

/// `10 s`, `0.25 s`.
pub fn show(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

/// Seconds as a limit: `0` is no limit; a negative or non-number is refused.
pub fn parse_seconds(text: &str) -> Option<Option<Duration>> {
    let s: f64 = text.trim().parse().ok()?;
    if !(0.0..=1e9).contains(&s) {
        return None;
    }
    Some(if s == 0.0 { None } else { Some(Duration::from_secs_f64(s)) })
}

/// Default largest number of cells a printer produces; `CUTE_PRINT_LIMIT` overrides it.
pub const DEFAULT_LIMIT: i64 = 1 << 20;

/// The cell limit: `CUTE_PRINT_LIMIT` if set to a positive integer, else `DEFAULT_LIMIT`.
pub fn limit() -> i64 {
    std::env::var("CUTE_PRINT_LIMIT")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .filter(|&v| v > 0)
        .unwrap_or(DEFAULT_LIMIT)
}

/// Refuse a `rows x cols` picture larger than the limit (never hang on huge layouts).
pub fn check_limit(what: &str, rows: i64, cols: i64) -> R<()> {
    check_limit_with(what, rows, cols, limit())
}

/// `check_limit` with an explicit limit.
pub fn check_limit_with(what: &str, rows: i64, cols: i64, lim: i64) -> R<()> {
    let cells = rows.max(0).checked_mul(cols.max(0));
    let too_big = rows > lim || cols > lim || cells.is_none_or(|c| c > lim);
    if too_big {
        let cells = cells.map_or_else(|| "more than 2^63".to_string(), |c| c.to_string());
        return Err(EvalError::limit(format!(
            "{what} of a {rows} x {cols} layout ({cells} cells) exceeds the limit of {lim} cells; \
             set the environment variable CUTE_PRINT_LIMIT to a larger number of cells to allow it"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_past_the_deadline_fails() {
        start(Some(Duration::ZERO));
        let e = (0..TICKS_PER_LOOK).map(|_| tick()).find_map(|r| r.err()).expect("the limit is reached");
        assert_eq!(e.kind, ErrorKind::Limit);
        assert!(e.detail.contains("--time-limit"), "{e}");
        start(None);
        assert!((0..2 * TICKS_PER_LOOK).all(|_| tick().is_ok()));
    }

    #[test]
    fn seconds() {
        assert_eq!(parse_seconds("0"), Some(None));
        assert_eq!(parse_seconds("2.5"), Some(Some(Duration::from_millis(2500))));
        assert_eq!(parse_seconds("-1"), None);
        assert_eq!(parse_seconds("x"), None);
        assert_eq!(show(Duration::from_secs(10)), "10 s");
        assert_eq!(show(Duration::from_millis(250)), "0.25 s");
    }
}
