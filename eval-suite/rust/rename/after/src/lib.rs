/// Counts how often something happened.
#[derive(Debug, Default)]
pub struct Tally {
    count: u64,
}

impl Tally {
    /// Counts one more.
    pub fn bump(&mut self) {
        self.count += 1;
    }

    /// How many so far.
    pub fn get(&self) -> u64 {
        self.count
    }

    /// Starts again from zero.
    pub fn reset(&mut self) {
        self.count = 0;
    }
}
