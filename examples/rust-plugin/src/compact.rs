//! The `compact` module's four hooks (and its hello handshake). The policy: follow the budget's
//! recommendation (or a manual compaction), cut at the latest turn boundary that keeps at least `keep`
//! recent messages, and replace everything before it with local extractive notes.

use crate::notes;
use serde_json::{json, Map, Value};

/// Exactly the compact module's declarations: the host refuses a worker whose hooks or tools differ.
pub const HOOKS: [&str; 4] = [
    "compact_plan",
    "before_compact",
    "after_compact",
    "before_compact_commit",
];
pub const DEFAULT_KEEP: usize = 4;

pub struct Options {
    pub keep: usize,
}

type Data = Map<String, Value>;

pub fn handle(options: &Options, event: &str, data: Data) -> Result<Data, String> {
    match event {
        "hello" => hello(data),
        "compact_plan" => plan(options, data),
        "before_compact" => prepare(data),
        "after_compact" => postprocess(data),
        "before_compact_commit" => commit(data),
        // Events this worker does not handle come back unchanged.
        _ => Ok(data),
    }
}

fn hello(mut data: Data) -> Result<Data, String> {
    match data.get("module").and_then(Value::as_str) {
        Some("compact") => {}
        other => {
            return Err(format!(
                "hello: this worker serves module \"compact\", not {}",
                other.map_or("(none)".to_string(), |m| format!("\"{m}\""))
            ))
        }
    }
    data.insert("protocol".into(), json!(1));
    data.insert("hooks".into(), json!(HOOKS));
    data.insert("tools".into(), json!([]));
    Ok(data)
}

fn role(message: &Value) -> &str {
    message.get("role").and_then(Value::as_str).unwrap_or("")
}

fn tool_call_count(message: &Value) -> usize {
    message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// Indexes where a turn starts: a user or assistant message after which no tool call is left
/// unanswered. Cutting there never separates a tool call from its result. history[0] (system) never is.
pub fn turn_starts(history: &[Value]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut unanswered = 0usize;
    for (i, message) in history.iter().enumerate().skip(1) {
        let r = role(message);
        if r == "tool" {
            unanswered = unanswered.saturating_sub(1);
            continue;
        }
        if (r == "user" || r == "assistant") && unanswered == 0 {
            starts.push(i);
        }
        unanswered = if r == "assistant" {
            tool_call_count(message)
        } else {
            0
        };
    }
    starts
}

/// The latest turn start that leaves at least `keep` messages after it, if it is 2 or more (the
/// system message stays and something must be left to summarise).
pub fn choose_cut(history: &[Value], keep: usize) -> Option<usize> {
    let limit = history.len().checked_sub(keep)?;
    let cut = turn_starts(history)
        .into_iter()
        .rev()
        .find(|&i| i <= limit)?;
    if cut >= 2 && cut < history.len() {
        Some(cut)
    } else {
        None
    }
}

fn decline(mut data: Data, reason: String) -> Result<Data, String> {
    data.insert("cut".into(), Value::Null);
    data.insert("state".into(), Value::Null);
    data.insert("decline_reason".into(), json!(reason));
    Ok(data)
}

fn plan(options: &Options, mut data: Data) -> Result<Data, String> {
    let forced = data.get("force") == Some(&Value::Bool(true));
    let recommendation = data
        .get("budget")
        .and_then(|b| b.get("recommendation"))
        .and_then(Value::as_str);
    if !forced && recommendation != Some("compact") && recommendation != Some("over") {
        return decline(data, "the budget does not recommend compaction".into());
    }
    let history = data
        .get("history")
        .and_then(Value::as_array)
        .ok_or("compact_plan: data.history is not an array")?;
    match choose_cut(history, options.keep) {
        None => decline(
            data,
            format!(
                "no turn boundary leaves the {} most recent messages (--keep) and something older to summarise",
                options.keep
            ),
        ),
        Some(cut) => {
            data.insert("cut".into(), json!(cut));
            data.insert("state".into(), json!({ "by": "i-plugin-example", "keep": options.keep }));
            Ok(data)
        }
    }
}

fn prepare(mut data: Data) -> Result<Data, String> {
    let messages = data
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("before_compact: data.messages is not an array")?;
    let summary = notes::extract(messages);
    // Returning `summary` selects the local route: the host makes no summary request. No images are
    // retained: old image attachments are deliberately left out.
    data.insert("summary".into(), json!(summary));
    data.remove("retained_images");
    data.remove("summary_images");
    Ok(data)
}

fn postprocess(mut data: Data) -> Result<Data, String> {
    let summary = match data.get("summary") {
        Some(Value::String(s)) => s.trim().to_string(),
        _ => return Err("after_compact: data.summary is not a string".into()),
    };
    if summary.is_empty() {
        return Err("after_compact: the local summary is empty".into());
    }
    data.insert(
        "summary".into(),
        json!(notes::cap_bytes(&summary, notes::NOTES_MAX_BYTES)),
    );
    Ok(data)
}

fn commit(mut data: Data) -> Result<Data, String> {
    let candidate = match data.get_mut("candidate") {
        Some(Value::Array(c)) => c,
        _ => return Err("before_compact_commit: data.candidate is not an array".into()),
    };
    // No reference snapshots to restore. Drop any image part another hook attached to the summary
    // message, so old images really are omitted.
    for message in candidate.iter_mut() {
        let is_summary =
            message.get("meta").and_then(|m| m.get("summary")) == Some(&Value::Bool(true));
        if let (true, Some(Value::Array(parts))) = (is_summary, message.get_mut("content")) {
            parts.retain(|p| p.get("type").and_then(Value::as_str) == Some("text"));
        }
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgs(list: Value) -> Vec<Value> {
        list.as_array().unwrap().clone()
    }

    #[test]
    fn cuts_at_turn_starts_only() {
        let h = msgs(json!([
            {"role":"system","content":"s"},
            {"role":"user","content":"a"},
            {"role":"assistant","content":"","tool_calls":[{"id":"1","name":"read","arguments":"{}"},{"id":"2","name":"read","arguments":"{}"}]},
            {"role":"tool","tool_call_id":"1","content":"x"},
            {"role":"tool","tool_call_id":"2","content":"y"},
            {"role":"assistant","content":"done"},
            {"role":"user","content":"b"}
        ]));
        assert_eq!(turn_starts(&h), vec![1, 2, 5, 6]);
        assert_eq!(choose_cut(&h, 1), Some(6));
        assert_eq!(choose_cut(&h, 2), Some(5));
        // keeping 3 would cut inside the tool batch: walk back to its assistant message
        assert_eq!(choose_cut(&h, 3), Some(2));
        assert_eq!(choose_cut(&h, 5), Some(2));
        assert_eq!(choose_cut(&h, 6), None);
        assert_eq!(choose_cut(&h, 60), None);
    }

    #[test]
    fn declines_without_a_recommendation_and_plans_when_forced() {
        let opts = Options { keep: 1 };
        let mut data = Map::new();
        data.insert(
            "history".into(),
            json!([{"role":"system"},{"role":"user"},{"role":"assistant"},{"role":"user"}]),
        );
        data.insert("budget".into(), json!({"recommendation":"none"}));
        data.insert("other".into(), json!("kept"));
        let out = plan(&opts, data.clone()).unwrap();
        assert_eq!(out["cut"], Value::Null);
        assert_eq!(out["other"], "kept");
        data.insert("force".into(), json!(true));
        let out = plan(&opts, data).unwrap();
        assert_eq!(out["cut"], 3);
    }

    #[test]
    fn hello_declares_exactly_the_compact_hooks() {
        let mut data = Map::new();
        data.insert("protocol".into(), json!(1));
        data.insert("module".into(), json!("compact"));
        let out = hello(data).unwrap();
        assert_eq!(out["hooks"], json!(HOOKS));
        assert_eq!(out["tools"], json!([]));
        let mut other = Map::new();
        other.insert("module".into(), json!("memory"));
        assert!(hello(other).is_err());
    }
}
