//! The binary's allocator for small blocks: a stack of free blocks per size class and thread.
//!
//! The algebra's values are trees of small vectors, so a statement allocates and frees a few
//! dozen blocks of 16 to 256 bytes. Rust tells `dealloc` the block's size, so a block needs no
//! header and the class is known without a look-up: taking a block is a pop from the class's
//! stack of free blocks (or a step of a bump pointer through a chunk), giving one back is a
//! push. Larger or more aligned blocks go to the system allocator.
//!
//! The free blocks of a class are a stack of their addresses, not a list threaded through the
//! blocks: after many blocks are freed at once (a script's values dropped, the benchmark's
//! results cleared), the blocks taken next are cold, and a list makes each take wait for the
//! cache miss on the block before (a chain of misses: a quarter of `logical_product`'s time).
//! The stack knows the blocks to come, so each take prefetches the block `AHEAD` takes later.
//!
//! Small blocks are never returned to the system. A block freed by another thread joins that
//! thread's stack. When a thread ends, its free blocks (as lists threaded through them) and the
//! rest of its chunk go to a shared pool, from which later threads take them before asking the
//! system for more (a REPL that runs each input on a new thread, as it does once it holds a
//! deeply nested value, reuses the same memory input after input). `main` installs it (the
//! library's own tests run on the system allocator). Imports nothing of the crate.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Size-class granularity and alignment of every small block.
const GRAIN: usize = 16;
/// Number of classes: blocks up to `GRAIN * CLASSES` bytes are small.
const CLASSES: usize = 16;
/// Bytes taken from the system at once for a thread's small blocks.
const CHUNK: usize = 64 << 10;

/// How many takes ahead a take prefetches its class's block (about a miss's latency over the
/// time between two takes).
const AHEAD: usize = 8;

/// One class's free blocks: their addresses, the last freed on top, in an array from the system
/// whose first `AHEAD` entries are not blocks but addresses to prefetch (the array's own), so
/// that a take prefetches without a test.
struct Stack {
    /// One past the top entry.
    top: Cell<*mut *mut u8>,
    /// The first entry (after the `AHEAD` others): the stack is empty when `top` is here.
    bottom: Cell<*mut *mut u8>,
    /// One past the array's last entry.
    limit: Cell<*mut *mut u8>,
}

impl Stack {
    /// The array's start and its number of entries (`AHEAD` of them not blocks).
    fn array(&self) -> (*mut *mut u8, usize) {
        let (bottom, limit) = (self.bottom.get(), self.limit.get());
        if bottom.is_null() {
            return (bottom, 0);
        }
        let entries = (limit as usize - bottom as usize) / std::mem::size_of::<*mut u8>() + AHEAD;
        // SAFETY: `bottom` is `AHEAD` entries into the array.
        (unsafe { bottom.sub(AHEAD) }, entries)
    }

    /// The number of free blocks.
    fn len(&self) -> usize {
        (self.top.get() as usize - self.bottom.get() as usize) / std::mem::size_of::<*mut u8>()
    }

    /// Room for one more address (false when the system has none to give).
    #[cold]
    fn grow(&self) -> bool {
        let (at, cap) = self.array();
        let n = self.len();
        let new_cap = (cap * 2).max(256);
        let word = std::mem::size_of::<*mut u8>();
        // SAFETY: sizes of a few words up to the number of free blocks, word-aligned; `at` came
        // from `System` with the old size.
        let new = unsafe {
            if at.is_null() {
                System.alloc(Layout::from_size_align_unchecked(new_cap * word, word))
            } else {
                System.realloc(at as *mut u8, Layout::from_size_align_unchecked(cap * word, word), new_cap * word)
            }
        } as *mut *mut u8;
        if new.is_null() {
            return false;
        }
        // SAFETY: the new array has `new_cap > AHEAD + n` entries.
        unsafe {
            for i in 0..AHEAD {
                *new.add(i) = new as *mut u8;
            }
            self.bottom.set(new.add(AHEAD));
            self.top.set(new.add(AHEAD + n));
            self.limit.set(new.add(new_cap));
        }
        true
    }

    /// Give the array back to the system, empty.
    fn release(&self) {
        let (at, cap) = self.array();
        if !at.is_null() {
            let word = std::mem::size_of::<*mut u8>();
            // SAFETY: the array came from `System` with this size.
            unsafe { System.dealloc(at as *mut u8, Layout::from_size_align_unchecked(cap * word, word)) };
        }
        for c in [&self.top, &self.bottom, &self.limit] {
            c.set(ptr::null_mut());
        }
    }
}

/// One thread's free blocks and bump range.
struct Lists {
    /// The free blocks of each class.
    free: [Stack; CLASSES],
    /// For each class, a list of free blocks taken from the pool (a free block's first word
    /// points to the next), used before the bump range.
    pooled: [Cell<*mut u8>; CLASSES],
    /// The unused part of the current chunk: `[bump, end)`.
    bump: Cell<*mut u8>,
    end: Cell<*mut u8>,
    /// The thread's blocks went to the pool (its last destructors are running): a block freed
    /// now is left unused rather than listed in a stack nothing will free.
    gone: Cell<bool>,
}

impl Lists {
    /// The thread ends: its free blocks and the rest of its chunk go to the pool.
    fn give_to_pool(&self) {
        self.gone.set(true);
        let mut pool = pool();
        for k in 0..CLASSES {
            let (stack, n) = (self.free[k].bottom.get(), self.free[k].len());
            // The stack as a list, on top of the blocks taken from the pool and not yet used:
            // each block's first word points to the one below it.
            let mut h = self.pooled[k].replace(ptr::null_mut());
            for i in 0..n {
                // SAFETY: the stack's `n` entries from `bottom` are free blocks of class `k`,
                // at least two words each.
                unsafe {
                    let b = *stack.add(i);
                    *(b as *mut *mut u8) = h;
                    h = b;
                }
            }
            if !h.is_null() {
                // SAFETY: `h` heads a list of free blocks of class `k`, at least two words each.
                unsafe { pool.push_list(k, h) };
            }
            self.free[k].release();
        }
        let (at, end) = (self.bump.replace(ptr::null_mut()), self.end.replace(ptr::null_mut()));
        // (a rest smaller than the largest block is left: any rest taken then fits any block)
        if (end as usize).wrapping_sub(at as usize) >= GRAIN * CLASSES && !at.is_null() {
            // SAFETY: `[at, end)` is unused memory of a chunk, GRAIN-aligned, two words or more.
            unsafe {
                *(at as *mut *mut u8) = end;
                *(at as *mut *mut u8).add(1) = pool.rests;
            }
            pool.rests = at;
        }
        POOLED.store(true, Ordering::Release);
    }
}

/// Registered on a thread's first new block: its destructor gives the thread's lists to the
/// pool. (The lists themselves have no destructor, so that an access to them needs no check;
/// the few blocks freed after this destructor, by the thread's last destructors, stay behind.
/// glibc registers it with `__cxa_thread_atexit_impl`, which allocates with its own `calloc`,
/// not through this allocator.)
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        LISTS.with(Lists::give_to_pool);
    }
}

thread_local! {
    // `const` and without `Drop`: an access is one thread-pointer-relative load, valid at
    // any point of a thread's life (also while other thread-locals are being destroyed).
    static LISTS: Lists = const {
        Lists {
            free: [const { Stack { top: Cell::new(ptr::null_mut()), bottom: Cell::new(ptr::null_mut()), limit: Cell::new(ptr::null_mut()) } }; CLASSES],
            pooled: [const { Cell::new(ptr::null_mut()) }; CLASSES],
            bump: Cell::new(ptr::null_mut()),
            end: Cell::new(ptr::null_mut()),
            gone: Cell::new(false),
        }
    };
    static GUARD: Guard = const { Guard };
}

/// What ended threads left: for each class a chain of free lists (a list's first block holds
/// the next list in its second word), and a chain of chunk rests of at least the largest
/// block's size (a rest holds its end in its first word and the next rest in its second).
struct Pool {
    lists: [*mut u8; CLASSES],
    rests: *mut u8,
}

// SAFETY: the pool's blocks belong to no thread; the mutex hands them to one at a time.
unsafe impl Send for Pool {}

impl Pool {
    /// Add the free list headed by `h` (class `k`) to the pool.
    ///
    /// # Safety
    /// `h` heads a list of free blocks of class `k`, each at least two words long.
    unsafe fn push_list(&mut self, k: usize, h: *mut u8) {
        // SAFETY: as the function's contract.
        unsafe { *(h as *mut *mut u8).add(1) = self.lists[k] };
        self.lists[k] = h;
    }

    /// Take the pool's first free list of class `k` whole (null if none).
    fn take_list(&mut self, k: usize) -> *mut u8 {
        let h = self.lists[k];
        if !h.is_null() {
            // SAFETY: `h` heads a pooled list: its second word is the next list.
            self.lists[k] = unsafe { *(h as *mut *mut u8).add(1) };
        }
        h
    }

    /// Take one chunk rest `[at, end)` (nulls if none).
    fn take_rest(&mut self) -> (*mut u8, *mut u8) {
        let at = self.rests;
        if at.is_null() {
            return (at, at);
        }
        // SAFETY: `at` is a pooled rest: its end and the next rest are its first two words.
        unsafe {
            self.rests = *(at as *mut *mut u8).add(1);
            (at, *(at as *mut *mut u8))
        }
    }
}

static POOL: Mutex<Pool> = Mutex::new(Pool { lists: [ptr::null_mut(); CLASSES], rests: ptr::null_mut() });

/// Some thread has left blocks in the pool (checked before taking the lock).
static POOLED: AtomicBool = AtomicBool::new(false);

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    // (nothing panics while the pool is held; a poisoned lock still holds a sound pool)
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

/// The class of a small layout, or `None` for the system allocator.
#[inline(always)]
fn class(layout: Layout) -> Option<usize> {
    let k = layout.size().wrapping_sub(1) / GRAIN;
    (k < CLASSES && layout.align() <= GRAIN).then_some(k)
}

/// Bring the block at `p` into the cache (a hint: any address will do).
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The allocator (see the module comment).
pub struct SmallBlocks;

impl SmallBlocks {
    /// Give back `p` of class `k` to a thread whose stack of that class is full: the stack
    /// grown first (apart, so that the usual push saves no registers).
    #[cold]
    #[inline(never)]
    unsafe fn push_grown(lists: &Lists, k: usize, p: *mut u8) {
        let s = &lists.free[k];
        if lists.gone.get() || !s.grow() {
            return; // (the block is left unused: see `Lists::gone`; or no memory)
        }
        let t = s.top.get();
        // SAFETY: the grown array has room for an entry at `top`; `p` is a free block.
        unsafe { *t = p };
        s.top.set(t.wrapping_add(1));
    }

    /// A new block of class `k` for a thread whose stack of that class is empty: from a list
    /// taken from the pool, else from the bump range, refilled from a pooled rest or the system.
    #[cold]
    unsafe fn carve(lists: &Lists, k: usize) -> *mut u8 {
        // (the first time on this thread: the lists go to the pool when it ends; while it ends,
        // nothing is registered any more)
        let _ = GUARD.try_with(|_| ());
        let mut h = lists.pooled[k].get();
        if h.is_null() && POOLED.load(Ordering::Acquire) {
            h = pool().take_list(k);
        }
        if !h.is_null() {
            // SAFETY: a pooled list of class `k`: its first word is the next free block.
            lists.pooled[k].set(unsafe { *(h as *mut *mut u8) });
            return h;
        }
        let bytes = (k + 1) * GRAIN;
        let mut at = lists.bump.get();
        if (lists.end.get() as usize).wrapping_sub(at as usize) < bytes || at.is_null() {
            // (what is left of the old range, less than `bytes`, is dropped; a pooled rest holds
            // the largest block)
            let (rest, end) =
                if POOLED.load(Ordering::Acquire) { pool().take_rest() } else { (ptr::null_mut(), ptr::null_mut()) };
            if !rest.is_null() {
                at = rest;
                lists.end.set(end);
            } else {
                // SAFETY: CHUNK and GRAIN are a valid non-zero size and alignment.
                at = unsafe { System.alloc(Layout::from_size_align_unchecked(CHUNK, GRAIN)) };
                if at.is_null() {
                    return at;
                }
                // SAFETY: `at` starts a block of CHUNK bytes.
                lists.end.set(unsafe { at.add(CHUNK) });
            }
        }
        // SAFETY: `bytes` fit between `at` and the range's end.
        lists.bump.set(unsafe { at.add(bytes) });
        at
    }
}

// SAFETY: every small block is GRAIN-aligned, at least its class's size, and handed out at most
// once until it is given back; the class is a function of the layout, which `dealloc` receives
// as `alloc` did, so a block returns to a list of its own size.
unsafe impl GlobalAlloc for SmallBlocks {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match class(layout) {
            Some(k) => LISTS.with(|l| {
                let s = &l.free[k];
                let t = s.top.get();
                if t == s.bottom.get() {
                    // SAFETY: as the function's contract.
                    return unsafe { Self::carve(l, k) };
                }
                // SAFETY: the entry below `top` is a free block, and the `AHEAD` below that are
                // blocks or the array's own address.
                unsafe {
                    let t = t.sub(1);
                    s.top.set(t);
                    prefetch(*t.sub(AHEAD));
                    *t
                }
            }),
            // SAFETY: the caller's layout, passed on.
            None => unsafe { System.alloc(layout) },
        }
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        match class(layout) {
            Some(k) => LISTS.with(|l| {
                let s = &l.free[k];
                let t = s.top.get();
                if t == s.limit.get() {
                    // SAFETY: as the function's contract.
                    return unsafe { Self::push_grown(l, k, p) };
                }
                // SAFETY: the array has room for an entry at `top`; `p` is a free block.
                unsafe { *t = p };
                s.top.set(t.wrapping_add(1));
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

    /// Many blocks freed at once (more than a stack's first array holds) come back last freed
    /// first, each once, and the stack's prefetch entries below its first block are never
    /// handed out.
    #[test]
    fn a_grown_stack_gives_back_last_freed_first() {
        // (a class no other test uses: tests run at the same time, each thread with its stacks)
        let l = Layout::from_size_align(120, 8).unwrap();
        std::thread::spawn(move || {
            let ps: Vec<*mut u8> = (0..5000).map(|_| unsafe { SmallBlocks.alloc(l) }).collect();
            for &p in &ps {
                unsafe { SmallBlocks.dealloc(p, l) };
            }
            for &p in ps.iter().rev() {
                assert_eq!(unsafe { SmallBlocks.alloc(l) }, p);
            }
            // the stack is empty again: the next block is a new one
            let q = unsafe { SmallBlocks.alloc(l) };
            assert!(!ps.contains(&q));
            unsafe { ptr::write_bytes(q, 1, 120) };
        })
        .join()
        .unwrap();
    }

    /// A block freed by another thread joins that thread's stack and stays usable there.
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

    /// The free blocks of a thread that has ended go to the pool, and a new thread takes them
    /// from there instead of asking the system for more.
    #[test]
    fn an_ended_threads_blocks_are_reused() {
        // (a class no other test uses: tests run at the same time and share the pool)
        let l = Layout::from_size_align(170, 8).unwrap();
        let run = move |free: bool| {
            std::thread::spawn(move || {
                let ps: Vec<usize> = (0..100).map(|_| unsafe { SmallBlocks.alloc(l) } as usize).collect();
                if free {
                    for &p in &ps {
                        unsafe { SmallBlocks.dealloc(p as *mut u8, l) };
                    }
                }
                ps
            })
            .join()
            .unwrap()
        };
        let mut first = run(true);
        let mut second = run(false);
        first.sort_unstable();
        second.sort_unstable();
        assert_eq!(first, second, "the second thread took the first one's blocks");
    }

    /// The pool's chains: lists taken whole, last in first out; rests with their ends.
    #[test]
    fn pool_chains() {
        let mut pool = Pool { lists: [ptr::null_mut(); CLASSES], rests: ptr::null_mut() };
        let mut blocks = [[0usize; 4]; 4];
        let b: Vec<*mut u8> = blocks.iter_mut().map(|x| x.as_mut_ptr() as *mut u8).collect();
        unsafe {
            // list b0 -> b1, and the list b2 alone
            *(b[0] as *mut *mut u8) = b[1];
            *(b[1] as *mut *mut u8) = ptr::null_mut();
            *(b[2] as *mut *mut u8) = ptr::null_mut();
            pool.push_list(3, b[0]);
            pool.push_list(3, b[2]);
        }
        assert_eq!(pool.take_list(3), b[2]);
        assert_eq!(pool.take_list(3), b[0]);
        assert_eq!(unsafe { *(b[0] as *mut *mut u8) }, b[1], "a taken list keeps its blocks");
        assert!(pool.take_list(3).is_null());
        assert!(pool.take_list(4).is_null());
        let end = unsafe { b[3].add(32) };
        unsafe {
            *(b[3] as *mut *mut u8) = end;
            *(b[3] as *mut *mut u8).add(1) = ptr::null_mut();
        }
        pool.rests = b[3];
        assert_eq!(pool.take_rest(), (b[3], end));
        assert!(pool.take_rest().0.is_null());
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
