/// Splits `data` into chunks of at most `size` bytes.
pub fn chunks(data: &[u8], size: usize) -> Vec<&[u8]> {
    assert!(size > 0, "size must be positive");
    let mut out = Vec::with_capacity(data.len() / size + 1);
    let mut start = 0;
    while start + size <= data.len() {
        out.push(&data[start..start + size]);
        start += size;
    }
    if start < data.len() - 1 {
        out.push(&data[start..]);
    }
    out
}

/// Total length of the chunks.
pub fn total(chunks: &[&[u8]]) -> usize {
    chunks.iter().map(|c| c.len()).sum()
}
