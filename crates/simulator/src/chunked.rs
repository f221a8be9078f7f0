//! A list kept in chunks of a fixed size: what the trace's entries and the player's step
//! records are stored in.
//!
//! An hour of 1,000 consumers records some 12 million trace entries and 6 million steps. In one
//! `Vec` each, every doubling of the capacity held the old and the new buffer at once (in wasm,
//! the steps' 0.7 GB and 1.5 GB), and half of the new one stood empty; a module's memory is
//! 4 GiB at most. In chunks a list grows one chunk at a time, never copies what it holds, and
//! takes the memory it fills, give or take a chunk.

use alloc::vec::Vec;
use core::mem::size_of;
use core::ops::Range;

/// Items of `T`, `N` to a chunk.
#[derive(Clone, Debug)]
pub(crate) struct Chunked<T, const N: usize> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T, const N: usize> Default for Chunked<T, N> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T, const N: usize> Chunked<T, N> {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn push(&mut self, item: T) {
        if self.chunks.last().is_none_or(|c| c.len() == N) {
            self.chunks.push(Vec::with_capacity(N));
        }
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.push(item);
            self.len += 1;
        }
    }

    pub(crate) fn get(&self, k: usize) -> Option<&T> {
        self.chunks.get(k / N)?.get(k % N)
    }

    pub(crate) fn get_mut(&mut self, k: usize) -> Option<&mut T> {
        self.chunks.get_mut(k / N)?.get_mut(k % N)
    }

    /// Keeps the first `len` items, and gives back the room of the others.
    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        self.chunks.truncate(len.div_ceil(N));
        if let Some(last) = self.chunks.last_mut() {
            last.truncate(len - (len - 1) / N * N);
        }
        self.chunks.shrink_to_fit();
        self.len = len;
    }

    /// The bytes the items take: whole chunks (each is allocated whole), and the list of them.
    pub(crate) fn bytes(&self) -> usize {
        self.chunks.len() * N * size_of::<T>() + self.chunks.capacity() * size_of::<Vec<T>>()
    }

    /// The items of `range`, cut to those there are.
    pub(crate) fn range(&self, range: Range<usize>) -> Iter<'_, T, N> {
        Iter {
            chunks: &self.chunks,
            range: range.start.min(self.len)..range.end.min(self.len),
        }
    }
}

/// Items of a [`Chunked`] list, in order (either way).
#[derive(Clone, Debug)]
pub struct Iter<'a, T, const N: usize> {
    chunks: &'a [Vec<T>],
    range: Range<usize>,
}

impl<'a, T, const N: usize> Iter<'a, T, N> {
    fn at(&self, k: usize) -> &'a T {
        &self.chunks[k / N][k % N]
    }
}

impl<'a, T, const N: usize> Iterator for Iter<'a, T, N> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        let k = self.range.next()?;
        Some(self.at(k))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }

    fn nth(&mut self, n: usize) -> Option<&'a T> {
        let k = self.range.nth(n)?;
        Some(self.at(k))
    }
}

impl<T, const N: usize> DoubleEndedIterator for Iter<'_, T, N> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let k = self.range.next_back()?;
        Some(self.at(k))
    }
}

impl<T, const N: usize> ExactSizeIterator for Iter<'_, T, N> {}
