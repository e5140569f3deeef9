//! The binary's allocator for small blocks: one free list per 16-byte size class and thread.
//!
//! The algebra's values are trees of small vectors, so a statement allocates and frees a few
//! dozen blocks of 16 to 256 bytes. Rust tells `dealloc` the block's size, so a block needs no
//! header and the class is known without a look-up: taking a block is a pop from the class's
//! list (or a step of a bump pointer through a chunk), giving one back is a push. Larger or
//! more aligned blocks go to the system allocator.
//!
//! Memory held by the lists is kept for reuse by the thread that freed it, never returned to
//! the system; a thread's lists are lost when it ends. `main` installs it (the library's own
//! tests run on the system allocator). Imports nothing of the crate.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;

/// Size-class granularity and alignment of every small block.
const GRAIN: usize = 16;
/// Number of classes: blocks up to `GRAIN * CLASSES` bytes are small.
const CLASSES: usize = 16;
/// Bytes taken from the system at once for a thread's small blocks.
const CHUNK: usize = 64 << 10;

/// One thread's free lists and bump range.
struct Lists {
    /// The first free block of each class; a free block's first word points to the next.
    free: [Cell<*mut u8>; CLASSES],
    /// The unused part of the current chunk: `[bump, end)`.
    bump: Cell<*mut u8>,
    end: Cell<*mut u8>,
}

thread_local! {
    // `const` and without `Drop`: an access is one thread-pointer-relative load, valid at
    // any point of a thread's life (also while other thread-locals are being destroyed).
    static LISTS: Lists = const {
        Lists {
            free: [const { Cell::new(ptr::null_mut()) }; CLASSES],
            bump: Cell::new(ptr::null_mut()),
            end: Cell::new(ptr::null_mut()),
        }
    };
}

/// The class of a small layout, or `None` for the system allocator.
#[inline(always)]
fn class(layout: Layout) -> Option<usize> {
    let k = layout.size().wrapping_sub(1) / GRAIN;
    (k < CLASSES && layout.align() <= GRAIN).then_some(k)
}

/// The allocator (see the module comment).
pub struct SmallBlocks;

impl SmallBlocks {
    /// A new block of class `k` from the bump range, refilled from the system when exhausted.
    #[cold]
    unsafe fn carve(lists: &Lists, k: usize) -> *mut u8 {
        let bytes = (k + 1) * GRAIN;
        let mut at = lists.bump.get();
        if (lists.end.get() as usize).wrapping_sub(at as usize) < bytes || at.is_null() {
            // SAFETY: CHUNK and GRAIN are a valid non-zero size and alignment.
            at = unsafe { System.alloc(Layout::from_size_align_unchecked(CHUNK, GRAIN)) };
            if at.is_null() {
                return at;
            }
            // SAFETY: `at` starts a block of CHUNK bytes.
            lists.end.set(unsafe { at.add(CHUNK) });
        }
        // SAFETY: `bytes` fit between `at` and the chunk's end.
        lists.bump.set(unsafe { at.add(bytes) });
        at
    }
}

// SAFETY: every small block is GRAIN-aligned, at least its class's size, and handed out at most
// once until it is given back; the class is a function of the layout, which `dealloc` receives
// as `alloc` did, so a block returns to the list of its own size.
unsafe impl GlobalAlloc for SmallBlocks {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class(layout) {
            Some(k) => LISTS.with(|l| {
                let head = l.free[k].get();
                if head.is_null() {
                    // SAFETY: as the function's contract.
                    return unsafe { Self::carve(l, k) };
                }
                // SAFETY: a free block's first word is the next free block.
                l.free[k].set(unsafe { *(head as *mut *mut u8) });
                head
            }),
            // SAFETY: the caller's layout, passed on.
            None => unsafe { System.alloc(layout) },
        }
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        match class(layout) {
            Some(k) => LISTS.with(|l| {
                // SAFETY: `p` is a small block of class `k` no longer in use, GRAIN-aligned and
                // at least one word long.
                unsafe { *(p as *mut *mut u8) = l.free[k].get() };
                l.free[k].set(p);
            }),
            // SAFETY: `p` came from `System.alloc` with this layout.
            None => unsafe { System.dealloc(p, layout) },
        }
    }

    #[inline]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees a valid layout for `new_size`.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class(layout), class(new)) {
            // Both large: the system may grow in place.
            // SAFETY: `p` came from `System.alloc` with `layout`.
            (None, None) => unsafe { System.realloc(p, layout, new_size) },
            // Same class: the block already fits.
            (Some(a), Some(b)) if a == b => p,
            _ => {
                // SAFETY: as `alloc` and `dealloc`; the copy stays within both blocks.
                unsafe {
                    let q = self.alloc(new);
                    if !q.is_null() {
                        ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                        self.dealloc(p, layout);
                    }
                    q
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every class and beyond, live together, never overlap, keep their contents, and
    /// are reused after being freed.
    #[test]
    fn blocks_are_disjoint_and_reused() {
        let a = SmallBlocks;
        let sizes = [1, 8, 16, 17, 24, 32, 48, 100, 255, 256, 257, 1000, 5000];
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        for round in 0..200u32 {
            for (j, &s) in sizes.iter().enumerate() {
                let layout = Layout::from_size_align(s, 8).unwrap();
                let p = unsafe { a.alloc(layout) };
                assert!(!p.is_null());
                assert_eq!(p as usize % 8, 0);
                let tag = (round as usize * 31 + j) as u8;
                unsafe { ptr::write_bytes(p, tag, s) };
                live.push((p, layout, tag));
            }
            // Free every third block, so that later rounds take blocks from the lists.
            let mut k = 0;
            live.retain(|&(p, layout, tag)| {
                k += 1;
                if k % 3 == 0 {
                    let bytes = unsafe { std::slice::from_raw_parts(p, layout.size()) };
                    assert!(bytes.iter().all(|&b| b == tag), "a block's contents changed");
                    unsafe { a.dealloc(p, layout) };
                    false
                } else {
                    true
                }
            });
        }
        let mut spans: Vec<(usize, usize)> =
            live.iter().map(|&(p, l, _)| (p as usize, p as usize + l.size())).collect();
        spans.sort_unstable();
        assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0), "two live blocks overlap");
        for (p, layout, tag) in live {
            let bytes = unsafe { std::slice::from_raw_parts(p, layout.size()) };
            assert!(bytes.iter().all(|&b| b == tag), "a block's contents changed");
            unsafe { a.dealloc(p, layout) };
        }
        // A freed block is the next one of its class.
        let l = Layout::from_size_align(40, 8).unwrap();
        let p = unsafe { a.alloc(l) };
        unsafe { a.dealloc(p, l) };
        assert_eq!(unsafe { a.alloc(l) }, p);
    }

    /// A block freed by another thread joins that thread's lists and stays usable there.
    #[test]
    fn blocks_cross_threads() {
        struct Send(Vec<usize>);
        let l = Layout::from_size_align(64, 8).unwrap();
        let made = std::thread::spawn(move || {
            Send(
                (0..1000)
                    .map(|k| {
                        let p = unsafe { SmallBlocks.alloc(l) };
                        unsafe { ptr::write_bytes(p, k as u8, 64) };
                        p as usize
                    })
                    .collect(),
            )
        })
        .join()
        .unwrap();
        for (k, &p) in made.0.iter().enumerate() {
            let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, 64) };
            assert!(bytes.iter().all(|&b| b == k as u8));
            unsafe { SmallBlocks.dealloc(p as *mut u8, l) };
        }
        let again: Vec<usize> = (0..1000).map(|_| unsafe { SmallBlocks.alloc(l) } as usize).collect();
        let mut a = again.clone();
        a.sort_unstable();
        let mut b = made.0.clone();
        b.sort_unstable();
        assert_eq!(a, b, "this thread reuses the blocks it was given back");
        for p in again {
            unsafe { SmallBlocks.dealloc(p as *mut u8, l) };
        }
    }

    /// `realloc` keeps the contents across classes and into and out of the system's blocks.
    #[test]
    fn realloc_keeps_contents() {
        let a = SmallBlocks;
        let mut layout = Layout::from_size_align(8, 8).unwrap();
        let mut p = unsafe { a.alloc(layout) };
        unsafe { ptr::write_bytes(p, 7, 8) };
        for &n in &[12, 40, 256, 300, 4096, 200, 16, 9000] {
            p = unsafe { a.realloc(p, layout, n) };
            let keep = layout.size().min(n);
            let bytes = unsafe { std::slice::from_raw_parts(p, keep) };
            assert!(bytes[..keep.min(8)].iter().all(|&b| b == 7));
            layout = Layout::from_size_align(n, 8).unwrap();
        }
        unsafe { a.dealloc(p, layout) };
    }
}
