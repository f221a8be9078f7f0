//! The model's one kind of randomness: a SplitMix64 stream from a seed. Same seed, same draws,
//! on every platform (integer arithmetic only). The coordinator draws member-id uuids from one
//! (Kafka's `randomUUID`); the simulator draws network latency, jitter and loss from another,
//! seeded by the scenario.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..=max` (0 when `max <= 0`).
    pub fn upto(&mut self, max: i64) -> i64 {
        if max <= 0 {
            return 0;
        }
        (self.next_u64() % (max as u64 + 1)) as i64
    }

    /// True with probability `ppm` parts per million.
    pub fn chance_ppm(&mut self, ppm: u32) -> bool {
        ppm > 0 && (self.next_u64() % 1_000_000) < u64::from(ppm)
    }
}
