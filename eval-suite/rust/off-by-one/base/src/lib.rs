/// Splits `data` into chunks of at most `size` bytes.
pub fn chunks(data: &[u8], size: usize) -> Vec<&[u8]> {
    assert!(size > 0, "size must be positive");
    data.chunks(size).collect()
}

/// Total length of the chunks.
pub fn total(chunks: &[&[u8]]) -> usize {
    chunks.iter().map(|c| c.len()).sum()
}
