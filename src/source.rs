//! A script's text: read into memory, or, for a large file, mapped from it. Touching fresh
//! memory is dear (about 1.5 us a page on the benchmark machine): reading a 20,000-line script
//! into a new buffer was a twentieth of running it; a mapping shares the file's cached pages,
//! a few at a time. May import: nothing of the crate.

/// The text of a script.
pub enum Text {
    Owned(String),
    #[cfg(unix)]
    Mapped(Mapped),
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Text::Owned(s) => s,
            #[cfg(unix)]
            // SAFETY: checked to be UTF-8 when it was made (`Text::map`)
            Text::Mapped(m) => unsafe { std::str::from_utf8_unchecked(m.bytes()) },
        }
    }
}

/// Files smaller than this are read: a mapping costs more than it saves on them.
pub const MAP_AT_LEAST: u64 = 64 * 1024;

impl Text {
    /// The text of the file at `path` mapped, where it is a regular file of at least
    /// [`MAP_AT_LEAST`] bytes of UTF-8; `None` otherwise, and on any error (the caller reads
    /// the file the ordinary way, which reports the error).
    pub fn map(path: &std::path::Path) -> Option<Text> {
        #[cfg(unix)]
        {
            let m = Mapped::of(path)?;
            std::str::from_utf8(m.bytes()).ok()?;
            Some(Text::Mapped(m))
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            None
        }
    }
}

/// A file mapped read-only and private. (As every program that maps its input, a file
/// truncated by another process while it runs ends it with SIGBUS; scripts are not written
/// while they run.)
#[cfg(unix)]
pub struct Mapped {
    ptr: *mut libc::c_void,
    len: usize,
}

#[cfg(unix)]
impl Mapped {
    fn of(path: &std::path::Path) -> Option<Mapped> {
        use std::os::fd::AsRawFd;
        // (looked at before it is opened: opening a named pipe would wait for a writer and take
        // its text away from the read that follows)
        let large = |m: &std::fs::Metadata| m.is_file() && m.len() >= MAP_AT_LEAST;
        if !large(&std::fs::metadata(path).ok()?) {
            return None;
        }
        let f = std::fs::File::open(path).ok()?;
        let meta = f.metadata().ok()?;
        if !large(&meta) {
            return None;
        }
        let len = usize::try_from(meta.len()).ok()?;
        // SAFETY: a new read-only private mapping of an open file (it stays valid after the
        // file is closed), its result checked.
        let ptr =
            unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE, f.as_raw_fd(), 0) };
        (ptr != libc::MAP_FAILED).then_some(Mapped { ptr, len })
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: `len` readable bytes are mapped at `ptr` until `drop`.
        unsafe { std::slice::from_raw_parts(self.ptr as *const u8, self.len) }
    }
}

#[cfg(unix)]
impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: the mapping `of` made, unmapped once.
        unsafe { libc::munmap(self.ptr, self.len) };
    }
}
