//! `Value::dispose` frees every kind of value it is given and nothing else: flat, nested, with
//! `_`, with scaled bases, layouts of mixed trees, other kinds. This test binary counts the
//! blocks this thread holds (its own allocator over the system's), so a value disposed of
//! without freeing all it owned, or freeing more, shows as a count that does not come back.

use cute::eval::int::st;
use cute::eval::int_tuple::{IntTuple, T};
use cute::eval::layout::Layout;
use cute::eval::value::Value;
use std::alloc::{GlobalAlloc, Layout as Block, System};
use std::cell::Cell;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

struct Counting;

// SAFETY: the system allocator's calls, passed on; the count is a thread-local integer.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Block) -> *mut u8 {
        let _ = LIVE.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Block) {
        let _ = LIVE.try_with(|n| n.set(n.get() - 1));
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn live() -> isize {
    LIVE.with(Cell::get)
}

#[test]
fn disposed_values_free_everything() {
    let i = IntTuple::st;
    let flat = || T(vec![i(2), i(4)]);
    let nested = || T(vec![T(vec![i(2), i(3)]), i(4), T(vec![T(vec![i(5)]), IntTuple::Under])]);
    let basis = || T(vec![IntTuple::basis(st(1), vec![0]), i(1)]);
    let values = vec![
        Value::Tuple(i(3)),
        Value::Tuple(flat()),
        Value::Tuple(nested()),
        Value::Tuple(basis()),
        Value::Tuple(T(vec![nested(), basis(), flat()])),
        Value::Layout(Layout::new(flat(), flat())),
        Value::Layout(Layout::new(nested(), nested())),
        Value::Layout(Layout::new(flat(), basis())),
        Value::Layout(Layout::new(T(vec![basis(), flat()]), nested())),
        Value::Layout(Layout::new(i(8), i(1))),
        Value::Str("text".into()),
    ];
    for v in &values {
        let before = live();
        let copy = v.clone();
        let made = live() - before;
        copy.dispose();
        assert_eq!(live(), before, "{v}: {made} blocks made, {} left after dispose", live() - before);
    }
}
