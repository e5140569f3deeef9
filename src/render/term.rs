//! How text tables look on a terminal: cells coloured (by index, by the chunk a swizzle moves
//! them to, or by thread), and a table wider than the terminal cut into bands of columns. The
//! session sets it per statement (a thread-local, like warnings); it is off by default, so pipes,
//! files, tests and `NO_COLOR` get CuTe's bytes. Colours are CuTe's `SVGColor_TV` as terminal
//! backgrounds (24-bit where `COLORTERM` says so, else the nearest of the 256-colour cube).
//! May import: `render::mma_svg` (the colours), nothing else.

use super::mma_svg::TV_COLOURS;
use std::cell::Cell;

/// The terminal the output goes to, as far as tables care.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terminal {
    /// Colour the cells.
    pub colour: bool,
    /// Columns of the terminal; `None`: not a terminal (never cut a table).
    pub width: Option<usize>,
    /// 24-bit colour (`COLORTERM=truecolor`), else 256 colours.
    pub truecolor: bool,
}

thread_local! {
    static TERM: Cell<Terminal> = const { Cell::new(Terminal { colour: false, width: None, truecolor: false }) };
}

/// Set the terminal for the statements evaluated next on this thread.
pub fn set(t: Terminal) {
    TERM.with(|c| c.set(t));
}

/// The terminal set on this thread (plain and unbounded unless the session set one).
pub fn get() -> Terminal {
    TERM.with(|c| c.get())
}

fn rgb(class: i64) -> (u8, u8, u8) {
    let mut it = TV_COLOURS[class.rem_euclid(8) as usize].split(',').map(|x| x.parse::<u8>().unwrap_or(255));
    (it.next().unwrap_or(255), it.next().unwrap_or(255), it.next().unwrap_or(255))
}

/// `text` on the background of colour class `class` (CuTe's TV colour `class mod 8`), black
/// text; `bold` for a second palette dimension (odd warps). Plain when colour is off.
pub fn cell(t: &Terminal, text: &str, class: i64, bold: bool) -> String {
    if !t.colour {
        return text.to_string();
    }
    let (r, g, b) = rgb(class);
    let bg = if t.truecolor {
        format!("48;2;{r};{g};{b}")
    } else {
        // the 6x6x6 cube: 16 + 36 r + 6 g + b, levels 0, 95, 135, 175, 215, 255
        let level = |x: u8| match x {
            0..=47 => 0,
            48..=114 => 1,
            115..=154 => 2,
            155..=194 => 3,
            195..=234 => 4,
            _ => 5,
        };
        format!("48;5;{}", 16 + 36 * level(r) + 6 * level(g) + level(b))
    };
    let weight = if bold { "1;" } else { "" };
    format!("\x1b[{weight}30;{bg}m{text}\x1b[0m")
}

/// The column ranges of a table of `cols` columns, each `cell_w` wide after a `margin`, that fit
/// in the terminal: all of them when they fit (or there is no terminal), else bands of a multiple
/// of 8 columns (a swizzle's chunk shows whole) where 8 fit.
pub fn bands(t: &Terminal, cols: i64, margin: usize, cell_w: usize) -> Vec<std::ops::Range<i64>> {
    let fit = match t.width {
        Some(w) if margin + cols.max(0) as usize * cell_w + 1 > w => {
            ((w.saturating_sub(margin + 1)) / cell_w.max(1)).max(1)
        }
        _ => return std::iter::once(0..cols).collect(),
    };
    let per = if fit >= 8 { fit / 8 * 8 } else { fit } as i64;
    (0..cols).step_by(per as usize).map(|a| a..(a + per).min(cols)).collect()
}
