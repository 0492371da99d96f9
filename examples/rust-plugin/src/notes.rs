//! Extractive notes: what the user asked, which files were touched, what failed and where the assistant
//! left off, copied from the transcript rather than written by a model. Lossy by design and capped at
//! 2048 UTF-8 bytes. Only text parts are read: image attachments and private adapter fields never reach
//! the notes.

use serde_json::Value;
use std::collections::BTreeSet;

pub const NOTES_MAX_BYTES: usize = 2048;

/// `text` cut to at most `max` UTF-8 bytes, never inside a character.
pub fn cap_bytes(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// Whitespace collapsed, then at most `max` characters (an ellipsis marks the cut).
fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let mut out: String = flat.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The text of a message's content: a string, or the text parts of a parts array.
fn text_of(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn flag(message: &Value, key: &str) -> bool {
    message.get("meta").and_then(|m| m.get(key)) == Some(&Value::Bool(true))
}

/// The `path` argument of a tool call (arguments are a JSON string), if it has one.
fn path_of(call: &Value) -> Option<String> {
    let args = call.get("arguments")?.as_str()?;
    let parsed: Value = serde_json::from_str(args).ok()?;
    parsed.get("path")?.as_str().map(str::to_string)
}

fn looks_failed(text: &str) -> bool {
    let start = text.trim_start().to_ascii_lowercase();
    ["error", "fatal"].iter().any(|w| {
        start.starts_with(w)
            && !start[w.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    })
}

pub fn extract(messages: &[Value]) -> String {
    let mut asks: Vec<String> = Vec::new();
    // (path, tools) in order of first use; the latest use moves a path to the end.
    let mut files: Vec<(String, BTreeSet<String>)> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let mut last_assistant = String::new();
    for m in messages {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        let text = text_of(m);
        match role {
            "user" if flag(m, "summary") => {
                asks.push(format!("(earlier summary) {}", one_line(&text, 300)))
            }
            "user" if !text.trim().is_empty() => asks.push(one_line(&text, 160)),
            "assistant" if !text.trim().is_empty() => last_assistant = text.clone(),
            "tool" if flag(m, "is_error") || looks_failed(&text) => {
                failures.push(one_line(&text, 140))
            }
            _ => {}
        }
        for call in m
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(path) = path_of(call) {
                let name = call
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_string();
                let mut tools = match files.iter().position(|(p, _)| *p == path) {
                    Some(at) => files.remove(at).1,
                    None => BTreeSet::new(),
                };
                tools.insert(name);
                files.push((path, tools));
            }
        }
    }
    let mut sections =
        vec!["Extractive notes (i-plugin-example; lossy, no model was asked):".to_string()];
    // Latest first everywhere: when the cap bites, the oldest items are the ones cut off.
    let files: Vec<String> = files
        .iter()
        .map(|(p, tools)| {
            let tools: Vec<&str> = tools.iter().map(String::as_str).collect();
            format!("{} ({})", one_line(p, 200), tools.join(", "))
        })
        .collect();
    for (title, items, max) in [
        ("User requests", &asks, 8),
        ("Files used", &files, 20),
        ("Failures seen", &failures, 4),
    ] {
        if !items.is_empty() {
            let list: Vec<String> = items
                .iter()
                .rev()
                .take(max)
                .map(|i| format!("- {i}"))
                .collect();
            sections.push(format!("{title}, latest first:\n{}", list.join("\n")));
        }
    }
    if !last_assistant.is_empty() {
        let text = one_line(&last_assistant, 400);
        sections.push(format!("Where the assistant left off:\n{text}"));
    }
    cap_bytes(&sections.join("\n\n"), NOTES_MAX_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cap_lands_on_a_char_boundary() {
        let text = "日本語".repeat(1000);
        let capped = cap_bytes(&text, NOTES_MAX_BYTES);
        assert!(capped.len() <= NOTES_MAX_BYTES && capped.len() > NOTES_MAX_BYTES - 3);
        assert_eq!(cap_bytes("short", 2048), "short");
    }

    #[test]
    fn notes_skip_images_and_adapter_state() {
        let messages = vec![
            json!({"role":"user","content":[{"type":"text","text":"look"},{"type":"image","media_type":"image/png","data":"QUJDRA=="}]}),
            json!({"role":"assistant","content":"reading","adapter":{"secret":"PRIVATE"},"tool_calls":[{"id":"1","name":"read","arguments":"{\"path\":\"src/a.rs\"}"}]}),
            json!({"role":"tool","tool_call_id":"1","content":"Error: no such file"}),
        ];
        let notes = extract(&messages);
        assert!(notes.contains("- look"));
        assert!(notes.contains("src/a.rs (read)"));
        assert!(notes.contains("Error: no such file"));
        assert!(!notes.contains("QUJDRA") && !notes.contains("PRIVATE"));
    }

    #[test]
    fn failures_need_a_whole_word() {
        assert!(looks_failed("error: x") && looks_failed("  FATAL"));
        assert!(!looks_failed("errors.ts is fine"));
    }
}
