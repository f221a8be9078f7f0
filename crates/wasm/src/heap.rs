//! The module's memory, grown ahead of a long run rather than a page at a time.
//!
//! The allocator (Talc's `WasmGrowAndExtend`) grows the memory by just what one allocation
//! lacks, most often one 64 KB page. A run that keeps its trace needs about 1 GB an hour at
//! 1,000 consumers, that is some 17,000 `memory.grow`s, and each costs the engine more than the
//! page itself: V8 replaces the memory's `ArrayBuffer` and counts the growth as external memory,
//! which sets off its garbage collector. Measured under Node 24, an hour of 1,000 classic
//! consumers with its trace: 10.4-11.4 s, of which 10% in the collector and 7% in growing;
//! with the memory grown at once, 8.4-8.7 s.
//!
//! So a call that had to grow the memory asks, as it returns, for a block of twice that growth,
//! or a quarter of the memory if that is more, and frees it: the allocator grows once, keeps the
//! block as free memory, and the next calls allocate from it. (Twice the growth alone left a
//! call in three growing page by page, the one that used up the block: 1,456 grows in that
//! hour, 7.5-7.9 s. With the quarter the block lasts longer as the memory grows, geometrically:
//! 298 grows, 7.0-7.3 s, four runs each, back to back.) Pages grown and not yet written cost no
//! memory of the machine (the hour's resident memory stays 929 MB); a run that stops growing
//! stops asking. Safe code only: a `Vec`'s capacity, tried, never required (a refusal near
//! wasm's 4 GiB leaves things as they are).

/// The most asked for at once.
const MOST: usize = 256 << 20;

/// Runs `run`, then grows the memory ahead by twice what `run` grew it.
pub(crate) fn ahead<T>(run: impl FnOnce() -> T) -> T {
    let before = pages();
    let out = run();
    let after = pages();
    let grown = after.saturating_sub(before) * PAGE;
    if grown > 0 {
        let mut block: Vec<u8> = Vec::new();
        // Fails only when the memory cannot grow that much: then the run goes on as before.
        let _ = block.try_reserve_exact((2 * grown).max(after * PAGE / 4).min(MOST));
    }
    out
}

const PAGE: usize = 64 << 10;

#[cfg(target_arch = "wasm32")]
fn pages() -> usize {
    core::arch::wasm32::memory_size::<0>()
}

// (The crate's host tests: there is no module memory to grow.)
#[cfg(not(target_arch = "wasm32"))]
fn pages() -> usize {
    0
}
