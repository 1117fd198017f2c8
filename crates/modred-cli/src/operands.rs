//! Operands too big for an argument: `@path` reads a number from a file (`@-` from standard
//! input), as text or, with `--bytes`, as raw big-endian bytes; `--out FILE` writes the
//! result to a file. The kernel limits one argument to 128 KiB, so without these a number
//! of a million bits could not be given at all.

use crate::engine::Number;
use crate::fail::Fail;
use crate::numbers;
use std::io::{Read, Write};

/// The largest file (or standard input) read as one number: 256 MiB, a number of about
/// 2^31 bits in hexadecimal — past every size the library computes with in reasonable time,
/// and bounded so that a wrong path (a device, a huge log) cannot exhaust memory.
pub const MAX_OPERAND_BYTES: u64 = 256 << 20;

/// How numbers are read from `@` files and the result written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Decimal or `0x` hexadecimal text, surrounding whitespace ignored.
    Text,
    /// Raw big-endian bytes (no sign, any leading zero bytes).
    Bytes,
}

/// Reads the operands of one command: each positional that starts with `@` from its file
/// (`@-`: standard input, at most once), the others as text. `roles` names each positional
/// for messages.
pub fn read_all(texts: &[String], roles: &[&str], encoding: Encoding) -> Result<Vec<Number>, Fail> {
    let stdin_uses = texts.iter().filter(|t| t.as_str() == "@-").count();
    if stdin_uses > 1 {
        return Err(Fail::new("standard input (@-) can give only one number"));
    }
    texts.iter().zip(roles).map(|(t, role)| read(t, role, encoding)).collect()
}

/// One operand: `@path`, `@-` or the number itself.
fn read(text: &str, role: &str, encoding: Encoding) -> Result<Number, Fail> {
    let Some(path) = text.strip_prefix('@') else {
        if encoding == Encoding::Bytes {
            return Err(Fail::new(format!(
                "--bytes reads numbers from files: give {role} as @path or @-"
            )));
        }
        return numbers::parse(text, role).map_err(Fail::new);
    };
    let where_ = if path == "-" { "standard input".to_string() } else { format!("'{path}'") };
    let data = if path == "-" {
        bounded_read(std::io::stdin().lock(), &where_)?
    } else {
        if path.is_empty() {
            return Err(Fail::new(format!("invalid {role} '@': expected @path or @-")));
        }
        let file = std::fs::File::open(path)
            .map_err(|e| Fail::new(format!("cannot read {role} from {where_}: {e}")))?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        if len > MAX_OPERAND_BYTES {
            return Err(too_big(role, &where_));
        }
        bounded_read(file, &where_)?
    };
    match encoding {
        Encoding::Bytes => Ok(Number::from_bytes_be(&data)),
        Encoding::Text => {
            // Digits, letters and spaces only: anything else is no number's text, and
            // would not be echoed to a terminal.
            let text = std::str::from_utf8(&data)
                .ok()
                .filter(|t| t.bytes().all(|c| c.is_ascii_graphic() || c.is_ascii_whitespace()))
                .ok_or_else(|| {
                    Fail::new(format!(
                        "invalid {role} in {where_}: not text (--bytes reads raw bytes)"
                    ))
                })?;
            numbers::parse(text.trim(), role)
                .map_err(|e| Fail::new(format!("{e} (read from {where_})")))
        }
    }
}

/// All of `r`, refused beyond [`MAX_OPERAND_BYTES`] (a file that grew, standard input).
fn bounded_read(r: impl Read, where_: &str) -> Result<Vec<u8>, Fail> {
    let mut data = Vec::new();
    r.take(MAX_OPERAND_BYTES + 1)
        .read_to_end(&mut data)
        .map_err(|e| Fail::new(format!("cannot read {where_}: {e}")))?;
    if data.len() as u64 > MAX_OPERAND_BYTES {
        return Err(too_big("a number", where_));
    }
    Ok(data)
}

fn too_big(role: &str, where_: &str) -> Fail {
    Fail::new(format!("{role} in {where_} is over the {} MiB limit", MAX_OPERAND_BYTES >> 20))
}

/// `n` as big-endian bytes without leading zeros (zero: one zero byte, so a file written
/// for it is never empty).
pub fn to_be_bytes(n: &Number) -> Vec<u8> {
    let out = n.to_bytes_be();
    if out.is_empty() {
        vec![0]
    } else {
        out
    }
}

/// Writes the result: as text (`hex` or decimal) with a newline, or as raw bytes; to
/// `out` when given (created or truncated), else to standard output.
pub fn write_result(
    n: &Number,
    encoding: Encoding,
    hex: bool,
    out: Option<&str>,
) -> Result<(), Fail> {
    let data = match encoding {
        Encoding::Bytes => to_be_bytes(n),
        Encoding::Text => (numbers::format(n, hex) + "\n").into_bytes(),
    };
    match out {
        Some(path) => std::fs::write(path, &data)
            .map_err(|e| Fail::new(format!("cannot write the result to '{path}': {e}"))),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&data)?;
            stdout.flush()?;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_at_the_edges() {
        for bytes in [
            vec![0u8],
            vec![1],
            vec![0xff; 8],
            vec![0x01, 0, 0, 0, 0, 0, 0, 0, 0],
            (1..=33).collect::<Vec<u8>>(),
        ] {
            let n = Number::from_bytes_be(&bytes);
            assert_eq!(to_be_bytes(&n), bytes, "{bytes:?}");
        }
        assert_eq!(Number::from_bytes_be(&[]), Number::from_u64(0));
        assert_eq!(Number::from_bytes_be(&[0, 0, 1, 2]), Number::from_u64(0x102));
        assert_eq!(to_be_bytes(&Number::from_u64(0x102)), vec![1, 2]);
    }

    #[test]
    fn files_and_their_errors() {
        let dir = std::env::temp_dir().join(format!("modred-operands-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = dir.join("x.txt");
        std::fs::write(&text, "  0xff\n").unwrap();
        let raw = dir.join("x.bin");
        std::fs::write(&raw, [1u8, 0]).unwrap();
        let arg = |p: &std::path::Path| format!("@{}", p.display());
        assert_eq!(read(&arg(&text), "x", Encoding::Text).unwrap(), Number::from_u64(255));
        assert_eq!(read(&arg(&raw), "x", Encoding::Bytes).unwrap(), Number::from_u64(256));
        let e = read(&arg(&raw), "x", Encoding::Text).unwrap_err().to_string();
        assert!(e.contains("not text"), "{e}");
        let e = read(&arg(&dir.join("missing")), "x", Encoding::Text).unwrap_err().to_string();
        assert!(e.starts_with("cannot read x from"), "{e}");
        let e = read("12", "x", Encoding::Bytes).unwrap_err().to_string();
        assert!(e.contains("@path"), "{e}");
        let e = read("@", "x", Encoding::Text).unwrap_err().to_string();
        assert!(e.contains("expected @path"), "{e}");
        let two = ["@-".to_string(), "@-".to_string()];
        assert!(read_all(&two, &["x", "y"], Encoding::Text).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
