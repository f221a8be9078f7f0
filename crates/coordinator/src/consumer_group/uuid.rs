//! Kafka's `Uuid`: 128 bits written as 22 base64url characters without padding (topic ids).
//!
//! Ordered as Kafka's `Uuid.compareTo`: the most significant half, then the least, each as a
//! **signed** 64-bit integer (`docs/src/reference/consumer-group-protocol.md#assignors`). The server's heterogeneous
//! uniform assignor breaks ties by this order, so a byte or `u128` order would change results
//! whenever a top bit is set.

use alloc::string::String;
use core::fmt;

/// A Kafka `Uuid` (topic id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Uuid {
    /// Fields in this order: the derived `Ord` is Kafka's signed comparison.
    pub most: i64,
    pub least: i64,
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

impl Uuid {
    /// Parses Kafka's text form: 22 base64url characters (no padding).
    pub fn parse(text: &str) -> Result<Uuid, String> {
        let bytes = text.as_bytes();
        if bytes.len() != 22 {
            return Err(alloc::format!(
                "a topic id is 22 base64url characters, got {} characters",
                text.chars().count()
            ));
        }
        let mut bits: u128 = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let Some(v) = ALPHABET.iter().position(|&a| a == b) else {
                return Err(alloc::format!(
                    "a topic id is base64url: character {} ({:?}) is not",
                    i + 1,
                    char::from(b)
                ));
            };
            if i == 21 {
                // The last character carries 2 bits (22 × 6 = 132 = 128 + 4 unused bits, which
                // Java's decoder ignores, as Kafka's test ids rely on).
                bits = (bits << 2) | (v as u128 >> 4);
            } else {
                bits = (bits << 6) | v as u128;
            }
        }
        Ok(Uuid::from_u128(bits))
    }

    pub fn from_u128(bits: u128) -> Uuid {
        Uuid {
            most: (bits >> 64) as u64 as i64,
            least: bits as u64 as i64,
        }
    }

    pub fn to_u128(self) -> u128 {
        ((self.most as u64 as u128) << 64) | self.least as u64 as u128
    }

    /// The id a topic gets when none is given: derived from its name, so the same name always
    /// gets the same id. FNV-1a over the name's bytes with two different offset bases gives the
    /// two halves; the version and variant bits are set as a version-4 UUID's (Kafka's own ids
    /// are random version-4 UUIDs). Never the all-zero id Kafka reserves.
    pub fn for_topic_name(name: &str) -> Uuid {
        let fnv = |basis: u64| {
            name.bytes().fold(basis, |h, b| {
                (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
            })
        };
        let most = (fnv(0xcbf2_9ce4_8422_2325) & !0xf000) | 0x4000;
        let least = (fnv(0x6c62_272e_07bb_0142) & !(0b11 << 62)) | (0b10 << 62);
        Uuid {
            most: most as i64,
            least: least as i64,
        }
    }
}

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits = self.to_u128();
        let mut out = [0u8; 22];
        for (i, c) in out.iter_mut().enumerate() {
            let v = if i == 21 {
                ((bits & 0b11) << 4) as usize
            } else {
                ((bits >> (128 - 6 * (i + 1))) & 0b11_1111) as usize
            };
            *c = ALPHABET[v];
        }
        // ALPHABET is ASCII.
        f.write_str(core::str::from_utf8(&out).unwrap_or(""))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Uuid {
    /// As Kafka's text form.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Uuid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Uuid, D::Error> {
        let text = <alloc::borrow::Cow<'de, str>>::deserialize(d)?;
        Uuid::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "schema")]
scalar_schema!(Uuid, { "type": "string", "description": "Kafka's Uuid text: 22 base64url characters." });

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for Uuid {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(Uuid {
            most: u.arbitrary()?,
            least: u.arbitrary()?,
        })
    }
}
