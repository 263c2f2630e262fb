/// Counts how often something happened.
#[derive(Debug, Default)]
pub struct Tally {
    n: u64,
}

impl Tally {
    /// Counts one more.
    pub fn bump(&mut self) {
        self.n += 1;
    }

    /// How many so far.
    pub fn get(&self) -> u64 {
        self.n
    }

    /// Starts again from zero.
    pub fn reset(&mut self) {
        self.n = 0;
    }
}
