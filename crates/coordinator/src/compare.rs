//! Comparisons of names, ids and integer lists that do not call `memcmp` (the assignors', and
//! the coordinator's lookups of members and timers by id).
//!
//! The standard library compares byte strings and integer slices with `memcmp`. Natively that
//! is libc's vectorised routine; the wasm32 build has no libc and gets compiler-builtins' `memcmp`,
//! a function call and a loop over single bytes. In wasm, comparing each of 1,000 members'
//! 1,000-topic subscriptions that way was 60% of a whole assignment, and sorting 1,000 topic
//! names a tenth. Comparing fixed-size arrays compiles to a few wide loads and compares, in wasm
//! and natively alike, so these read eight elements at a time. They give exactly what `==` and
//! `cmp` give (the tests below check that).

use alloc::vec::Vec;
use core::cmp::Ordering;

/// `a.cmp(b)`: byte order, as `str`'s own `Ord`.
pub(crate) fn name_order(a: &str, b: &str) -> Ordering {
    let (a8, b8) = (
        a.as_bytes().as_chunks::<8>().0,
        b.as_bytes().as_chunks::<8>().0,
    );
    for (x, y) in a8.iter().zip(b8) {
        if x != y {
            // Big-endian: the first byte that differs decides, as in byte order.
            return u64::from_be_bytes(*x).cmp(&u64::from_be_bytes(*y));
        }
    }
    let done = a8.len().min(b8.len()) * 8;
    a.as_bytes()[done..].iter().cmp(&b.as_bytes()[done..])
}

/// `0..n` sorted by `name` ([`name_order`]), or `Err(i)` where `i` is one of two with the same
/// name (what the member ids and the compact form's topic table refuse).
pub(crate) fn by_name<'s>(n: usize, name: impl Fn(usize) -> &'s str) -> Result<Vec<usize>, usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&a, &b| name_order(name(a), name(b)));
    match order
        .windows(2)
        .find(|w| name_order(name(w[0]), name(w[1])).is_eq())
    {
        Some(pair) => Err(pair[0]),
        None => Ok(order),
    }
}

/// `a == b` for lists of names: the JSON form's members give their subscriptions as names,
/// compared member by member.
pub(crate) fn same_names(a: &[alloc::string::String], b: &[alloc::string::String]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| same_bytes(x.as_bytes(), y.as_bytes()))
}

/// `a == b` for byte strings: eight bytes at a time, the last eight (or four) read where they
/// end, overlapping what was read, so that a name of any length takes no byte loop. A byte loop
/// for the tail made names shorter than eight bytes slower natively than libc's `memcmp`.
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let last8 = |s: &[u8]| <[u8; 8]>::try_from(&s[n - 8..]).ok();
    let at4 = |s: &[u8], i: usize| <[u8; 4]>::try_from(&s[i..i + 4]).ok();
    match n {
        0..4 => a.iter().zip(b).all(|(x, y)| x == y),
        4..8 => at4(a, 0) == at4(b, 0) && at4(a, n - 4) == at4(b, n - 4),
        _ => {
            let (a8, b8) = (a.as_chunks::<8>().0, b.as_chunks::<8>().0);
            a8.iter().zip(b8).all(|(x, y)| x == y) && last8(a) == last8(b)
        }
    }
}

/// `a == b`. A plain loop over elements would be 1.5x slower natively than libc's `memcmp`.
pub(crate) fn same_ints(a: &[i32], b: &[i32]) -> bool {
    let ((a8, a_rest), (b8, b_rest)) = (a.as_chunks::<8>(), b.as_chunks::<8>());
    a8.len() == b8.len()
        && a8.iter().zip(b8).all(|(x, y)| x == y)
        && a_rest.len() == b_rest.len()
        && a_rest.iter().zip(b_rest).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use proptest::prelude::*;

    /// Names that often share long prefixes and differ near chunk boundaries, in ASCII and
    /// multi-byte characters.
    fn name() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![Just('a'), Just('b'), Just('-'), Just('é'), Just('成')],
            0..20,
        )
        .prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]
        #[test]
        fn name_order_is_byte_order(a in name(), b in name(), shared in name()) {
            let (a, b) = (alloc::format!("{shared}{a}"), alloc::format!("{shared}{b}"));
            prop_assert_eq!(name_order(&a, &b), a.cmp(&b));
            prop_assert_eq!(name_order(&b, &a), b.cmp(&a));
            prop_assert_eq!(name_order(&a, &a), Ordering::Equal);
        }

        #[test]
        fn same_bytes_is_equality(a in name(), b in name(), flip in any::<prop::sample::Index>()) {
            prop_assert_eq!(same_bytes(a.as_bytes(), b.as_bytes()), a == b);
            // The same length, one byte apart, wherever it is.
            let mut c = a.clone().into_bytes();
            if !c.is_empty() {
                let i = flip.index(c.len());
                c[i] ^= 1;
                prop_assert!(!same_bytes(a.as_bytes(), &c));
            }
            prop_assert!(same_bytes(a.as_bytes(), a.as_bytes()));
        }

        #[test]
        fn same_names_is_equality(a in proptest::collection::vec(name(), 0..6), other in proptest::collection::vec(name(), 0..6), how in 0..4u8) {
            // Often equal, or nearly: the same list, one name longer, one list shorter.
            let mut b = match how {
                0 => other,
                _ => a.clone(),
            };
            match (how, b.last_mut()) {
                (2, Some(last)) => last.push('a'),
                (3, Some(_)) => drop(b.pop()),
                _ => {}
            }
            prop_assert_eq!(same_names(&a, &b), a == b);
            prop_assert_eq!(same_names(&b, &a), a == b);
        }

        #[test]
        fn same_ints_is_equality(a in proptest::collection::vec(0i32..3, 0..40), flip in any::<Option<prop::sample::Index>>(), grow in any::<bool>()) {
            let mut b: Vec<i32> = a.clone();
            if let Some(i) = flip.filter(|_| !b.is_empty()) {
                let i = i.index(b.len());
                b[i] = -b[i] - 1;
            }
            if grow {
                b.push(0);
            }
            prop_assert_eq!(same_ints(&a, &b), a == b);
            prop_assert!(same_ints(&a, &a));
        }
    }
}
