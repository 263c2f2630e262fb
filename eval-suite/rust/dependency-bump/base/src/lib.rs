use serde::Serialize;

/// One row of the report.
#[derive(Serialize)]
pub struct Row {
    pub name: String,
    pub total: u64,
}

/// The rows as JSON.
pub fn to_json(rows: &[Row]) -> serde_json::Result<String> {
    serde_json::to_string(rows)
}
