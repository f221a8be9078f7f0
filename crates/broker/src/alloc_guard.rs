//! An allocator that keeps a malformed frame from aborting the broker.
//!
//! kafka-protocol sizes an array's `Vec` from the length the frame claims
//! (`Vec::with_capacity(n)`) before it reads a single element. A frame that claims 2^31 elements
//! asks for hundreds of gigabytes; the allocation fails, and Rust aborts the whole process on a
//! failed allocation: one bad frame would stop every client's group. Kafka fixed the same class
//! of bug in its own generated code (CVE-2022-34917) by checking a claimed size against the bytes
//! left. Until the decoder we use does that, this allocator serves every allocation of 1 GiB or
//! more from address space reserved without backing memory (`mmap` with `MAP_NORESERVE`): the
//! decoder runs out of frame bytes after a few elements, returns its error, and the mapping is
//! released having touched a page or two. Nothing this broker does legitimately comes near 1 GiB
//! (frames are at most `socket.request.max.bytes`, 100 MiB), and a large allocation served this
//! way is still ordinary memory once written.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};

/// Allocations from this size up are reserved, not committed.
const LARGE: usize = 1 << 30;
/// `mmap` returns page-aligned memory; a stricter alignment goes to the system allocator.
const PAGE: usize = 4096;

#[derive(Debug)]
pub struct Guard;

fn reserved(layout: &Layout) -> bool {
    layout.size() >= LARGE && layout.align() <= PAGE
}

// SAFETY: every block is either the system allocator's (sizes below LARGE or large alignments)
// or a fresh anonymous mapping of exactly `layout.size()` bytes; `dealloc` and `realloc` receive
// the same layout they were allocated with, so they tell the two apart by the same test.
unsafe impl GlobalAlloc for Guard {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if reserved(&layout) {
            map(layout.size())
        } else {
            // SAFETY: forwarded unchanged.
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if reserved(&layout) {
            // Anonymous mappings are zero-filled.
            map(layout.size())
        } else {
            // SAFETY: forwarded unchanged.
            unsafe { System.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if reserved(&layout) {
            // SAFETY: `ptr` is a mapping of `layout.size()` bytes made by `map`.
            unsafe { libc::munmap(ptr.cast(), layout.size()) };
        } else {
            // SAFETY: forwarded unchanged.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract on `new_size` holds for the new layout too.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if !reserved(&layout) && !reserved(&new_layout) {
            // SAFETY: forwarded unchanged.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: a new block, the overlapping bytes copied, the old block freed by its own kind.
        unsafe {
            let new = self.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}

fn map(size: usize) -> *mut u8 {
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        std::ptr::null_mut()
    } else {
        p.cast()
    }
}
