//! The worker protocol's framing and envelope: a request is `{"id","event","workspace","data"}` on one
//! line; the reply is `{"id","data"}` with the complete updated data, or `{"id","error"}`. A line that is
//! not a request gets an error reply too (with `"id":null` when no id can be read), and the worker keeps
//! serving: a bad line never takes the process down.

use serde_json::{json, Map, Value};
use std::io::{self, BufRead};
use std::panic::{self, AssertUnwindSafe};

/// The largest request line accepted, newline excluded (the host's own limit is the same).
pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// One line read from the host, or why it cannot be used.
pub enum Line {
    Text(String),
    /// not UTF-8, or longer than MAX_LINE_BYTES (the rest of it was skipped)
    Bad(String),
}

/// The next line without its newline; Ok(None) at end of input.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let (done, used) = {
            let buf = input.fill_buf()?;
            if buf.is_empty() {
                if bytes.is_empty() && !too_long {
                    return Ok(None);
                }
                (true, 0)
            } else {
                match buf.iter().position(|&b| b == b'\n') {
                    Some(at) => {
                        if !too_long {
                            bytes.extend_from_slice(&buf[..at]);
                        }
                        (true, at + 1)
                    }
                    None => {
                        if !too_long {
                            bytes.extend_from_slice(buf);
                        }
                        (false, buf.len())
                    }
                }
            }
        };
        input.consume(used);
        // Past the limit, keep reading to the newline but stop storing: memory stays bounded.
        if bytes.len() > MAX_LINE_BYTES {
            too_long = true;
            bytes = Vec::new();
        }
        if done {
            break;
        }
    }
    if too_long {
        return Ok(Some(Line::Bad(format!(
            "request line longer than {MAX_LINE_BYTES} bytes"
        ))));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::Bad("request line is not valid UTF-8".to_string()),
    }))
}

fn error_reply(id: Value, message: &str) -> String {
    json!({ "id": id, "error": message }).to_string()
}

/// The reply line for one request line; None for a blank line (nothing to answer). `handle` gets the
/// event name and the request's data and returns the updated data or an error message.
pub fn answer<F>(line: &Line, handle: F) -> Option<String>
where
    F: FnOnce(&str, Map<String, Value>) -> Result<Map<String, Value>, String>,
{
    let text = match line {
        Line::Bad(why) => {
            return Some(error_reply(
                Value::Null,
                &format!("malformed request: {why}"),
            ))
        }
        Line::Text(text) => text,
    };
    if text.trim().is_empty() {
        return None;
    }
    let request: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(err) => {
            return Some(error_reply(
                Value::Null,
                &format!("malformed request: not JSON ({err})"),
            ))
        }
    };
    let mut request = match request {
        Value::Object(map) => map,
        _ => {
            return Some(error_reply(
                Value::Null,
                "malformed request: not a JSON object",
            ))
        }
    };
    let id = match request.get("id").and_then(Value::as_u64) {
        Some(id) => id,
        None => {
            return Some(error_reply(
                Value::Null,
                "malformed request: \"id\" is not an unsigned integer",
            ))
        }
    };
    let event = match request.get("event").and_then(Value::as_str) {
        Some(e) if !e.is_empty() => e.to_string(),
        _ => {
            return Some(error_reply(
                json!(id),
                "malformed request: \"event\" is not a nonempty string",
            ))
        }
    };
    let data = match request.remove("data") {
        Some(Value::Object(data)) => data,
        _ => {
            return Some(error_reply(
                json!(id),
                "malformed request: \"data\" is not an object",
            ))
        }
    };
    // A bug in a handler is reported for this request instead of ending the process.
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| handle(&event, data)))
        .unwrap_or_else(|_| Err(format!("{event}: internal error in i-plugin-example")));
    Some(match outcome {
        Ok(data) => json!({ "id": id, "data": Value::Object(data) }).to_string(),
        Err(message) => error_reply(json!(id), &message),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(text: &str) -> Value {
        let line = Line::Text(text.to_string());
        serde_json::from_str(&answer(&line, |_, d| Ok(d)).unwrap()).unwrap()
    }

    #[test]
    fn malformed_lines_get_error_replies() {
        assert_eq!(reply("{not json")["id"], Value::Null);
        assert!(reply("{not json")["error"]
            .as_str()
            .unwrap()
            .starts_with("malformed request"));
        assert_eq!(reply("[1,2]")["id"], Value::Null);
        assert_eq!(reply(r#"{"id":3,"event":"x","data":7}"#)["id"], 3);
        assert!(reply(r#"{"id":3,"event":"x","data":7}"#)["error"].is_string());
        assert_eq!(
            reply(r#"{"id":-1,"event":"x","data":{}}"#)["id"],
            Value::Null
        );
    }

    #[test]
    fn data_comes_back_whole() {
        let r =
            reply(r#"{"id":9,"event":"x","workspace":"/w","data":{"a":[1,{"b":null}],"c":"é"}}"#);
        assert_eq!(r["id"], 9);
        assert_eq!(r["data"], json!({"a":[1,{"b":null}],"c":"é"}));
    }

    #[test]
    fn lines_are_split_and_bounded() {
        let mut input = io::Cursor::new(b"one\r\n\xff\ntwo".to_vec());
        assert!(matches!(read_line(&mut input).unwrap(), Some(Line::Text(t)) if t == "one"));
        assert!(matches!(read_line(&mut input).unwrap(), Some(Line::Bad(_))));
        assert!(matches!(read_line(&mut input).unwrap(), Some(Line::Text(t)) if t == "two"));
        assert!(read_line(&mut input).unwrap().is_none());
    }
}
