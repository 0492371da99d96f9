//! `i-plugin-example`: a replacement worker for i, written in Rust with serde_json as its only
//! dependency. Started as `i-plugin-example --compact`, it implements the whole `compact` module over
//! the worker protocol: one JSON request per line on stdin, one JSON reply per line on stdout, replies
//! matched by id. Its summaries are local extractive notes, so compaction makes no model request.
//!
//!   i-plugin-example --compact [--keep N]
//!
//! `--compact` names the module this process serves (the only one this example implements); `--keep N`
//! keeps at least the N most recent messages out of the summary (default 4, like the built-in policy).

mod compact;
mod notes;
mod protocol;

use std::io::{self, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: i-plugin-example --compact [--keep N]";

/// The command line, or the one line that says what is wrong with it.
fn parse_args(args: &[String]) -> Result<compact::Options, String> {
    let mut module: Option<&str> = None;
    let mut keep = compact::DEFAULT_KEEP;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--compact" => module = Some("compact"),
            "--keep" => {
                let value = args
                    .get(i + 1)
                    .ok_or("--keep needs a number, e.g. --keep 4")?;
                keep = match value.parse::<usize>() {
                    Ok(n) if n >= 1 => n,
                    _ => {
                        return Err(format!(
                            "--keep must be a positive integer, got \"{value}\""
                        ))
                    }
                };
                i += 1;
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown option \"{other}\"; {USAGE}")),
        }
        i += 1;
    }
    if module.is_none() {
        return Err(format!("say which module to serve; {USAGE}"));
    }
    Ok(compact::Options { keep })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("i-plugin-example: {message}");
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    loop {
        let line = match protocol::read_line(&mut input) {
            Ok(Some(line)) => line,
            Ok(None) => return ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("i-plugin-example: cannot read stdin: {err}");
                return ExitCode::FAILURE;
            }
        };
        let reply =
            match protocol::answer(&line, |event, data| compact::handle(&options, event, data)) {
                Some(reply) => reply,
                None => continue,
            };
        // The host reads one reply per line: write it whole, then flush so it is not left in a buffer.
        if writeln!(output, "{reply}")
            .and_then(|_| output.flush())
            .is_err()
        {
            // The host closed the pipe: nobody is left to answer.
            return ExitCode::SUCCESS;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_args;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn requires_the_module_flag() {
        assert!(parse_args(&args(&[])).is_err());
        assert_eq!(parse_args(&args(&["--compact"])).unwrap().keep, 4);
        assert_eq!(
            parse_args(&args(&["--compact", "--keep", "9"]))
                .unwrap()
                .keep,
            9
        );
        assert!(parse_args(&args(&["--compact", "--keep", "0"])).is_err());
        assert!(parse_args(&args(&["--compact", "--bogus"])).is_err());
    }
}
