//! Bytes to text: byte-order marks, the `CA` property, and a fallback for undeclared legacy bytes.
//!
//! sgf-parse works on `&str`, so the character set is settled here first, with `encoding_rs`.
//! The order of the evidence:
//! 1. A byte-order mark (UTF-8, UTF-16LE, UTF-16BE) wins over everything.
//! 2. Bytes that are valid UTF-8 are read as UTF-8, even when `CA` names a legacy set: real files
//!    often declare `CA[GB2312]` or `CA[MS_KANJI]` and hold UTF-8 (a warning says so), while
//!    legacy multi-byte text is almost never valid UTF-8 by chance.
//! 3. Otherwise the `CA` charset (aliases such as `ISO8859_1`, `MS_KANJI`, `GB2312` included).
//! 4. Otherwise the caller's default, or ISO-8859-1, which SGF FF\[4] prescribes when `CA` is
//!    absent; it maps every byte to a character, so the SGF structure (all ASCII) survives even
//!    when names in another script come out garbled. A warning says so.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use crate::error::Warning;

/// The decoded text (borrowed when the bytes are UTF-8 already) and what was noticed on the way.
pub(crate) struct Decoded<'a> {
    pub text: Cow<'a, str>,
    pub warnings: Vec<Warning>,
}

/// Decodes `bytes`; `default` is the label to use when there is no BOM, no `CA` and the bytes
/// are not UTF-8.
pub(crate) fn decode<'a>(bytes: &'a [u8], default: Option<&str>) -> Decoded<'a> {
    let mut warnings = Vec::new();
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let body = bytes.get(bom_len..).unwrap_or_default();
        let text = decode_with(enc, body, &mut warnings);
        return Decoded { text, warnings };
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        // ASCII reads the same in every charset `CA` may name: no need to look for it.
        if !s.is_ascii() {
            if let Some(declared) = find_charset(bytes) {
                if encoding_for(&declared).is_some_and(|e| e != UTF_8) {
                    warnings.push(Warning::CharsetMismatch { declared });
                }
            }
        }
        return Decoded {
            text: Cow::Borrowed(s),
            warnings,
        };
    }
    let declared = find_charset(bytes);
    let enc = match &declared {
        Some(label) => match encoding_for(label) {
            Some(enc) => enc,
            None => {
                let used = fallback(default);
                warnings.push(Warning::UnknownCharset {
                    declared: label.clone(),
                    used: used.name(),
                });
                used
            }
        },
        None => {
            let used = fallback(default);
            warnings.push(Warning::NoCharset { used: used.name() });
            used
        }
    };
    let text = decode_with(enc, bytes, &mut warnings);
    Decoded { text, warnings }
}

fn fallback(default: Option<&str>) -> &'static Encoding {
    default.and_then(encoding_for).unwrap_or(WINDOWS_1252)
}

fn decode_with<'a>(
    enc: &'static Encoding,
    bytes: &'a [u8],
    warnings: &mut Vec<Warning>,
) -> Cow<'a, str> {
    let (text, had_errors): (Cow<'_, str>, bool) = enc.decode_without_bom_handling(bytes);
    if had_errors {
        warnings.push(Warning::Replaced {
            charset: enc.name(),
        });
    }
    text
}

/// The encoding named by an SGF `CA` value, accepting the WHATWG labels and the spellings found
/// in SGF files (`ISO8859_1`, `UTF8`, `cp936`, …). `None` for unknown names and for labels that
/// WHATWG maps to the "replacement" encoding.
pub(crate) fn encoding_for(label: &str) -> Option<&'static Encoding> {
    let label = label.trim();
    let found = Encoding::for_label(label.as_bytes()).or_else(|| {
        let norm = label.to_ascii_lowercase().replace('_', "-");
        Encoding::for_label(norm.as_bytes()).or_else(|| {
            let alias = match norm.as_str() {
                "utf8" => "utf-8".to_string(),
                "cp936" | "ms936" | "windows-936" | "gb" => "gbk".to_string(),
                "cp950" | "ms950" | "windows-950" => "big5".to_string(),
                "cp932" | "ms932" | "windows-932" | "shift-jis" | "sjis" => "shift_jis".to_string(),
                "cp949" | "ms949" | "windows-949" | "uhc" => "euc-kr".to_string(),
                n if n.starts_with("iso8859") => format!("iso-8859{}", &n["iso8859".len()..]),
                n if n.starts_with("latin") => format!("latin{}", &n["latin".len()..]),
                _ => return None,
            };
            Encoding::for_label(alias.as_bytes())
        })
    });
    found.filter(|e| *e != encoding_rs::REPLACEMENT)
}

/// The first `CA` value of the file, found by a light byte scan that skips property values (the
/// bytes before `CA`, normally ASCII, are all it needs to read).
pub(crate) fn find_charset(bytes: &[u8]) -> Option<String> {
    let mut i = 0;
    let mut ident: Vec<u8> = Vec::new();
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'[' {
            let start = i + 1;
            let mut j = start;
            while j < bytes.len() && bytes[j] != b']' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            let end = j.min(bytes.len());
            let mut upper = ident.iter().filter(|c| c.is_ascii_uppercase());
            if upper.next() == Some(&b'C') && upper.next() == Some(&b'A') && upper.next().is_none()
            {
                let value = bytes.get(start..end).unwrap_or_default();
                return Some(String::from_utf8_lossy(value).trim().to_string());
            }
            // A property may have several values: keep the identifier until another begins.
            i = end + 1;
            continue;
        }
        if b.is_ascii_alphabetic() {
            if i > 0 && !bytes[i - 1].is_ascii_alphabetic() {
                ident.clear();
            }
            ident.push(b);
        } else if !b.is_ascii_whitespace() {
            ident.clear();
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        for (label, name) in [
            ("UTF-8", "UTF-8"),
            ("utf8", "UTF-8"),
            ("GB2312", "GBK"),
            ("gbk", "GBK"),
            ("GB18030", "gb18030"),
            ("Big5", "Big5"),
            ("Shift_JIS", "Shift_JIS"),
            ("MS_KANJI", "Shift_JIS"),
            ("EUC-KR", "EUC-KR"),
            ("ISO-8859-1", "windows-1252"),
            ("ISO8859_1", "windows-1252"),
            ("ASCII", "windows-1252"),
            ("cp936", "GBK"),
        ] {
            assert_eq!(encoding_for(label).map(|e| e.name()), Some(name), "{label}");
        }
        assert!(encoding_for("klingon").is_none());
        assert!(encoding_for("iso-2022-kr").is_none());
    }

    #[test]
    fn charset_scan() {
        assert_eq!(
            find_charset(b"(;GM[1]CA[UTF-8][UTF-8])").as_deref(),
            Some("UTF-8")
        );
        assert_eq!(
            find_charset(b"(;C[CA[x]]CA[gb2312])").as_deref(),
            Some("gb2312")
        );
        assert_eq!(find_charset(b"(;PCA[x])"), None);
        assert_eq!(find_charset(b"(;CA[unclosed"), Some("unclosed".into()));
        assert_eq!(find_charset(b"(;B[aa]"), None);
    }
}
