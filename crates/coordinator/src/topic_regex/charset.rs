//! Sets of characters, projected onto the alphabet a match can meet.
//!
//! Kafka's topic names are made of `[a-zA-Z0-9._-]` (`Topic.validate`, which the model's
//! metadata keeps too), so a pattern only ever meets ASCII. A set is then its ASCII members, plus
//! the two non-ASCII characters that simple case folding ties to ASCII letters: `ſ` (U+017F,
//! folds with `s`) and `K` (U+212A, the Kelvin sign, folds with `k`). With them, folding and
//! negating in any order give RE2/J's answers on ASCII text: `(?i)[^s]` leaves out `s`, `S` and
//! `ſ`, so it matches neither `s` nor `S`.

/// The long s and the Kelvin sign: the only non-ASCII characters whose simple case folding
/// reaches ASCII.
const LONG_S: char = '\u{017F}';
const KELVIN: char = '\u{212A}';

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CharSet {
    /// Bit `c` for the ASCII character `c`.
    ascii: u128,
    long_s: bool,
    kelvin: bool,
}

impl CharSet {
    pub(super) fn empty() -> CharSet {
        CharSet::default()
    }

    pub(super) fn all() -> CharSet {
        CharSet {
            ascii: u128::MAX,
            long_s: true,
            kelvin: true,
        }
    }

    pub(super) fn of_char(c: char) -> CharSet {
        CharSet::range(c, c)
    }

    /// `lo..=hi`.
    pub(super) fn range(lo: char, hi: char) -> CharSet {
        let (lo, hi) = (u32::from(lo), u32::from(hi));
        let mut ascii = 0u128;
        for c in lo..=hi.min(127) {
            ascii |= 1 << c;
        }
        let has = |c: char| (lo..=hi).contains(&u32::from(c));
        CharSet {
            ascii,
            long_s: has(LONG_S),
            kelvin: has(KELVIN),
        }
    }

    pub(super) fn ranges(ranges: &[(char, char)]) -> CharSet {
        ranges.iter().fold(CharSet::empty(), |s, &(lo, hi)| {
            s.union(CharSet::range(lo, hi))
        })
    }

    pub(super) fn chars(chars: &str) -> CharSet {
        chars
            .chars()
            .fold(CharSet::empty(), |s, c| s.union(CharSet::of_char(c)))
    }

    pub(super) fn union(self, other: CharSet) -> CharSet {
        CharSet {
            ascii: self.ascii | other.ascii,
            long_s: self.long_s || other.long_s,
            kelvin: self.kelvin || other.kelvin,
        }
    }

    pub(super) fn without(self, c: char) -> CharSet {
        let out = CharSet::of_char(c);
        CharSet {
            ascii: self.ascii & !out.ascii,
            long_s: self.long_s && !out.long_s,
            kelvin: self.kelvin && !out.kelvin,
        }
    }

    pub(super) fn negated(self) -> CharSet {
        CharSet {
            ascii: !self.ascii,
            long_s: !self.long_s,
            kelvin: !self.kelvin,
        }
    }

    /// Closed under simple case folding (the orbits `a A`, …, `k K K`, `s S ſ`).
    pub(super) fn case_folded(self) -> CharSet {
        const UPPER: u128 = 0x07FF_FFFE << 64; // A..=Z
        const LOWER: u128 = 0x07FF_FFFE << 96; // a..=z
        let letters = self.ascii & (UPPER | LOWER);
        let mut ascii = self.ascii | ((letters & UPPER) << 32) | ((letters & LOWER) >> 32);
        let bit = |c: char| 1u128 << u32::from(c);
        let has_s = ascii & bit('s') != 0 || self.long_s;
        let has_k = ascii & bit('k') != 0 || self.kelvin;
        if has_s {
            ascii |= bit('s') | bit('S');
        }
        if has_k {
            ascii |= bit('k') | bit('K');
        }
        CharSet {
            ascii,
            long_s: has_s,
            kelvin: has_k,
        }
    }

    pub(super) fn contains_byte(&self, b: u8) -> bool {
        b < 128 && self.ascii & (1u128 << b) != 0
    }
}

/// RE2's POSIX classes (`[:alpha:]`), all ASCII.
pub(super) fn posix_class(name: &str) -> Option<CharSet> {
    let r = CharSet::ranges;
    Some(match name {
        "alnum" => r(&[('0', '9'), ('A', 'Z'), ('a', 'z')]),
        "alpha" => r(&[('A', 'Z'), ('a', 'z')]),
        "ascii" => r(&[('\0', '\x7f')]),
        "blank" => CharSet::chars("\t "),
        "cntrl" => r(&[('\0', '\x1f'), ('\x7f', '\x7f')]),
        "digit" => r(&[('0', '9')]),
        "graph" => r(&[('!', '~')]),
        "lower" => r(&[('a', 'z')]),
        "print" => r(&[(' ', '~')]),
        "punct" => r(&[('!', '/'), (':', '@'), ('[', '`'), ('{', '~')]),
        "space" => CharSet::chars("\t\n\x0b\x0c\r "),
        "upper" => r(&[('A', 'Z')]),
        "word" => r(&[('0', '9'), ('A', 'Z'), ('a', 'z'), ('_', '_')]),
        "xdigit" => r(&[('0', '9'), ('A', 'F'), ('a', 'f')]),
        _ => return None,
    })
}

/// The Unicode general categories RE2/J 1.7 knows.
const CATEGORIES: [&str; 36] = [
    "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N",
    "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So",
    "Z", "Zl", "Zp", "Zs",
];

/// The scripts RE2/J 1.7 knows (its Unicode 6.x tables), by their exact names.
const SCRIPTS: [&str; 96] = [
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Batak",
    "Bengali",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Cham",
    "Cherokee",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Egyptian_Hieroglyphs",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Greek",
    "Gujarati",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanunoo",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kayah_Li",
    "Kharoshthi",
    "Khmer",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Malayalam",
    "Mandaic",
    "Meetei_Mayek",
    "Mongolian",
    "Myanmar",
    "New_Tai_Lue",
    "Nko",
    "Ogham",
    "Ol_Chiki",
    "Old_Italic",
    "Old_Persian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Oriya",
    "Osmanya",
    "Phags_Pa",
    "Phoenician",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Shavian",
    "Sinhala",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Tamil",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Ugaritic",
    "Unknown",
    "Vai",
    "Yi",
];

/// `\p{name}` as RE2/J reads it (exact, case-sensitive names), projected: its ASCII members
/// and whether it holds `ſ` or `K` (both are Latin letters; `ſ` lowercase, `K` uppercase).
///
/// Under `(?i)` RE2/J adds the name's fold table, not a general folding: only `Ll`, `Lu`, `Lt`,
/// `Mn`, `Common`, `Greek` and `Inherited` have one, and only those of `Ll` (`K`, `S`, `K`) and
/// `Lu` (`a`–`z`, `ſ`) reach ASCII. So `(?i)\p{Ll}` does not match `A`, as RE2/J 1.7 answers.
pub(super) fn unicode_class(name: &str, fold_case: bool) -> Option<CharSet> {
    let set = unfolded_unicode_class(name)?;
    Some(match (fold_case, name) {
        (true, "Ll") => set.union(CharSet::chars("KS\u{212A}")),
        (true, "Lu") => set.union(CharSet::ranges(&[('a', 'z'), (LONG_S, LONG_S)])),
        _ => set,
    })
}

fn unfolded_unicode_class(name: &str) -> Option<CharSet> {
    let r = CharSet::ranges;
    let c = CharSet::chars;
    let with = |mut s: CharSet, long_s: bool, kelvin: bool| {
        s.long_s = long_s;
        s.kelvin = kelvin;
        s
    };
    if name == "Any" {
        return Some(CharSet::all());
    }
    if CATEGORIES.contains(&name) {
        return Some(match name {
            "C" | "Cc" => r(&[('\0', '\x1f'), ('\x7f', '\x7f')]),
            "L" => with(r(&[('A', 'Z'), ('a', 'z')]), true, true),
            "Ll" => with(r(&[('a', 'z')]), true, false),
            "Lu" => with(r(&[('A', 'Z')]), false, true),
            "N" | "Nd" => r(&[('0', '9')]),
            "P" => c("!\"#%&'()*,-./:;?@[\\]_{}"),
            "Pc" => c("_"),
            "Pd" => c("-"),
            "Pe" => c(")]}"),
            "Po" => c("!\"#%&'*,./:;?@\\"),
            "Ps" => c("([{"),
            "S" => c("$+<=>^`|~"),
            "Sc" => c("$"),
            "Sk" => c("^`"),
            "Sm" => c("+<=>|~"),
            "Z" | "Zs" => c(" "),
            _ => CharSet::empty(),
        });
    }
    if SCRIPTS.contains(&name) {
        return Some(match name {
            "Latin" => with(r(&[('A', 'Z'), ('a', 'z')]), true, true),
            "Common" => r(&[('\0', '@'), ('[', '`'), ('{', '\x7f')]),
            _ => CharSet::empty(),
        });
    }
    None
}
