use std::fs;

/// The port used when the file gives none.
pub const DEFAULT_PORT: u16 = 8080;

/// The port the server listens on, from the file at `path`.
pub fn read_port(path: &str) -> u16 {
    match fs::read_to_string(path) {
        Ok(text) => text.trim().parse().unwrap_or(0),
        Err(_) => DEFAULT_PORT,
    }
}
