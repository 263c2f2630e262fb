use std::fs;
use std::io;

/// The port the server listens on, from the file at `path`.
pub fn read_port(path: &str) -> io::Result<u16> {
    let text = fs::read_to_string(path)?;
    text.trim()
        .parse()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}
