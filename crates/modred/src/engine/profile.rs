//! Tuning profiles: which algorithm and which exponentiation method won on one machine,
//! measured by `modred tune`, for the auto rule ([`super::rule::choose`]) to follow.
//!
//! # The file format, version 1
//!
//! Plain text, one entry per line, written by `modred tune` and readable (and editable) by
//! hand. `#` starts a comment (to the end of the line); blank lines are ignored. The first
//! line that is not blank or a comment is the header `modred-profile 1`. Then:
//!
//! ```text
//! # op      form             bits  algorithm
//! mulmod    odd              2048  montgomery-interleaved
//! powm      pseudo-mersenne  255   pseudo-mersenne
//! reduce    even             512   barrett
//! # method  exponent-bits    method
//! method    1024             sliding-6
//! ```
//!
//! - An *algorithm entry* `OP FORM BITS ALGORITHM`: for operation `OP` (`reduce`, `mulmod`
//!   or `powm`) and moduli of form `FORM` ([`Form`]: `nist`, `pseudo-mersenne`,
//!   `solinas`, `odd`, `even`), `ALGORITHM` (a name of `modred algos`, not `auto`) was the
//!   fastest at `BITS` bits. The algorithm must apply to every modulus of the form (so
//!   `montgomery` never stands beside `even`).
//! - A *method entry* `method BITS METHOD`: for exponents of `BITS` bits the fastest
//!   exponentiation was `METHOD`: `binary`, `fixed-W` or `sliding-W` (`W` from 1 to 16).
//!
//! At most one entry per (op, form, bits) and per method bits. `BITS` is from 1 to 2^32.
//!
//! # How entries are used
//!
//! An entry measured at `p` bits covers sizes from `p/2` to `2p`; where two entries cover
//! a size, the nearer one (by the ratio of sizes) wins. Sizes no entry covers, forms
//! without entries, and entries whose algorithm cannot be built for the modulus fall back
//! to the built-in rule. So a profile measured from 64 to 8192 bits does not decide for a
//! 100 000-bit modulus; the built-in transform threshold does.
//!
//! # Where profiles come from
//!
//! The library never reads a file on its own: [`Profile::load`] reads one,
//! [`Profile::load_default`] reads the one at [`default_path`] (`$MODRED_PROFILE`, else
//! `$XDG_CONFIG_HOME/modred/profile.txt`, else `$HOME/.config/modred/profile.txt`), and
//! [`Profile::activate`] makes [`super::rule::choose`] follow it. The `modred` command line
//! does this at start-up, and warns (then uses the built-in rule) when the file is
//! malformed.
//!
//! Files and environment variables need the `std` feature: without it those three are
//! absent, and a profile comes from text ([`Profile::parse`], e.g. of an `include_str!`)
//! or is built with [`Profile::set_algorithm`]; activation works the same.

// Without std the links above to the file functions have nothing to point at.
#![cfg_attr(not(feature = "std"), allow(rustdoc::broken_intra_doc_links))]

use super::Operation;
use crate::error::Error;
use crate::exp::{Method, MAX_WINDOW};
use crate::nat::Nat;
use crate::reduce::{pseudo_mersenne_form, NistPrime, SolinasPoly};
use crate::registry::Algorithm;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;
#[cfg(feature = "std")]
use std::path::{Path, PathBuf};

/// The version of the file format this library reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The header line of a version-1 profile.
pub const HEADER: &str = "modred-profile 1";

/// Profiles longer than this are refused (a real one is a few kilobytes).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The environment variable that names the profile file: a path, or empty for none.
pub const ENV_VAR: &str = "MODRED_PROFILE";

/// The form of a modulus, as far as the choice of a reducer goes. Each modulus has
/// exactly one: the first of the list that fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// One of the primes the hard-coded `nist` reducer knows ([`NistPrime`]).
    Nist,
    /// `2^N − c` with `c` of one 64-bit digit and `2·bits(c) < N` (paper 003 §5's fast
    /// case of `pseudo-mersenne`).
    PseudoMersenne,
    /// A generalized Mersenne number `f(2^64)` or `f(2^32)` that `solinas` takes.
    Solinas,
    /// Any other odd modulus.
    Odd,
    /// Any other even modulus.
    Even,
}

impl Form {
    /// Every form, in the order of precedence.
    pub const ALL: [Form; 5] =
        [Form::Nist, Form::PseudoMersenne, Form::Solinas, Form::Odd, Form::Even];

    /// The form of `m` (`m > 0`).
    pub fn of(m: &Nat) -> Form {
        if NistPrime::of(m).is_some() {
            Form::Nist
        } else if pseudo_mersenne_form(m).is_some_and(|(_, c)| c.len() == 1) {
            Form::PseudoMersenne
        } else if SolinasPoly::usable_for(m) {
            // A polynomial too heavy for the reducer is no special form to exploit.
            Form::Solinas
        } else if m.is_odd() {
            Form::Odd
        } else {
            Form::Even
        }
    }

    /// The name in profiles and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Form::Nist => "nist",
            Form::PseudoMersenne => "pseudo-mersenne",
            Form::Solinas => "solinas",
            Form::Odd => "odd",
            Form::Even => "even",
        }
    }

    /// In words, for explanations.
    pub const fn describe(self) -> &'static str {
        match self {
            Form::Nist => "a NIST / paper 003 Table 2 prime",
            Form::PseudoMersenne => "pseudo-Mersenne 2^N - c with a one-digit c",
            Form::Solinas => "generalized Mersenne (Solinas) f(2^64) or f(2^32)",
            Form::Odd => "odd, of no special form",
            Form::Even => "even, of no special form",
        }
    }

    /// Whether `a` may apply to moduli of this form (what a profile may name for it): every
    /// algorithm that applies to all of them, and the special-form ones that apply to some
    /// NIST primes.
    pub fn admits(self, a: Algorithm) -> bool {
        use crate::registry::Moduli;
        // Some NIST primes are pseudo-Mersenne (P-521, 2^512 − 2^32 − 1) or Solinas numbers
        // too: the rule checks the modulus itself before it uses an entry.
        a.info().is_some_and(|i| match i.moduli {
            Moduli::Any => true,
            Moduli::Odd => self != Form::Even,
            Moduli::PseudoMersenne => matches!(self, Form::PseudoMersenne | Form::Nist),
            Moduli::Solinas => matches!(self, Form::Solinas | Form::Nist),
            Moduli::Nist => self == Form::Nist,
        })
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Form {
    type Err = Error;
    fn from_str(s: &str) -> Result<Form, Error> {
        Form::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "unknown modulus form '{s}' (known: nist, pseudo-mersenne, solinas, odd, even)"
            ))
        })
    }
}

/// A method's name in profiles: `binary`, `fixed-W`, `sliding-W`.
pub fn method_name(m: Method) -> String {
    match m {
        Method::Binary => "binary".to_string(),
        Method::FixedWindow(w) => format!("fixed-{w}"),
        Method::SlidingWindow(w) => format!("sliding-{w}"),
    }
}

/// The method named `s` ([`method_name`]'s form), with a window from 1 to 16.
pub fn parse_method(s: &str) -> Result<Method, Error> {
    let bad = || {
        Error::InvalidArgument(format!(
            "unknown exponentiation method '{s}' (expected binary, fixed-W or sliding-W with W \
             from 1 to {MAX_WINDOW})"
        ))
    };
    if s == "binary" {
        return Ok(Method::Binary);
    }
    let (kind, digits) = s.split_once('-').ok_or_else(bad)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let w: u32 = match digits.parse() {
        Ok(w) if (1..=MAX_WINDOW).contains(&w) => w,
        _ => return Err(bad()),
    };
    match kind {
        "fixed" => Ok(Method::FixedWindow(w)),
        "sliding" => Ok(Method::SlidingWindow(w)),
        _ => Err(bad()),
    }
}

/// One measured winner: `algorithm` for `op` on moduli of `form` at `bits` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlgorithmEntry {
    /// The operation.
    pub op: Operation,
    /// The form of the moduli.
    pub form: Form,
    /// The size measured, in bits.
    pub bits: u64,
    /// The winner (never `Auto`).
    pub algorithm: Algorithm,
}

/// One measured exponentiation method: the fastest for exponents of `bits` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MethodEntry {
    /// Exponent length in bits.
    pub bits: u64,
    /// The winner.
    pub method: Method,
}

/// A tuning profile (see the [module documentation](self) for the file format).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// Free-text lines written as comments at the top (what machine, when).
    pub notes: Vec<String>,
    /// The algorithm entries, in file order.
    pub algorithms: Vec<AlgorithmEntry>,
    /// The method entries, in file order.
    pub methods: Vec<MethodEntry>,
    /// Where it was read from, if from a file (only with the `std` feature: without it the
    /// library reads no files).
    #[cfg(feature = "std")]
    pub source: Option<PathBuf>,
}

/// The largest size an entry may name (`2^32` bits: far beyond any modulus the library can
/// work with in reasonable time).
pub const MAX_ENTRY_BITS: u64 = 1 << 32;

/// The entry among `points` (sizes in bits) nearest to `bits`, by the ratio of sizes, if
/// within a factor of two; ties go to the smaller point.
fn nearest<T: Copy>(points: impl Iterator<Item = (u64, T)>, bits: u64) -> Option<(u64, T)> {
    let bits = bits.max(1);
    // The ratio of sizes as the larger over the smaller, compared exactly (no logarithm:
    // an exact tie goes to the smaller point, as documented).
    let ratio = |p: u64| if p >= bits { (p, bits) } else { (bits, p) };
    points
        .filter(|&(p, _)| {
            let (hi, lo) = ratio(p);
            hi <= lo.saturating_mul(2)
        })
        .min_by(|a, b| {
            let ((ah, al), (bh, bl)) = (ratio(a.0), ratio(b.0));
            (ah as u128 * bl as u128).cmp(&(bh as u128 * al as u128)).then(a.0.cmp(&b.0))
        })
}

impl Profile {
    /// An empty profile (everything falls back to the built-in rule).
    pub fn new() -> Profile {
        Profile::default()
    }

    /// Adds or replaces the entry for (`op`, `form`, `bits`).
    pub fn set_algorithm(&mut self, op: Operation, form: Form, bits: u64, algorithm: Algorithm) {
        let e = AlgorithmEntry { op, form, bits, algorithm };
        match self.algorithms.iter_mut().find(|x| x.op == op && x.form == form && x.bits == bits) {
            Some(x) => *x = e,
            None => self.algorithms.push(e),
        }
    }

    /// Adds or replaces the method entry for exponents of `bits` bits.
    pub fn set_method(&mut self, bits: u64, method: Method) {
        match self.methods.iter_mut().find(|x| x.bits == bits) {
            Some(x) => x.method = method,
            None => self.methods.push(MethodEntry { bits, method }),
        }
    }

    /// The entry that decides `op` for a modulus of `form` and `bits` bits, if one covers
    /// that size.
    pub fn algorithm_for(&self, op: Operation, form: Form, bits: u64) -> Option<AlgorithmEntry> {
        let points =
            self.algorithms.iter().filter(|e| e.op == op && e.form == form).map(|e| (e.bits, *e));
        nearest(points, bits).map(|(_, e)| e)
    }

    /// The entry that decides the method for an exponent of `bits` bits, if one covers it.
    pub fn method_for(&self, bits: u64) -> Option<MethodEntry> {
        nearest(self.methods.iter().map(|e| (e.bits, *e)), bits).map(|(_, e)| e)
    }

    /// Parses the text of a profile. Errors name the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<Profile, Error> {
        let mut p = Profile::new();
        let mut header = false;
        for (i, raw) in text.lines().enumerate() {
            let at =
                |what: String| Error::InvalidArgument(format!("profile line {}: {what}", i + 1));
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                if !header {
                    if let Some(note) = raw.trim().strip_prefix('#') {
                        let note = note.trim();
                        if !note.is_empty() {
                            p.notes.push(note.to_string());
                        }
                    }
                }
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if !header {
                if fields.first() == Some(&"modred-profile") {
                    match fields.get(1).map(|v| v.parse::<u32>()) {
                        Some(Ok(FORMAT_VERSION)) if fields.len() == 2 => {
                            header = true;
                            continue;
                        }
                        _ => {
                            return Err(at(format!(
                                "unsupported profile version '{}' (this build reads '{HEADER}')",
                                fields[1..].join(" ")
                            )))
                        }
                    }
                }
                return Err(at(format!("expected the header '{HEADER}' first")));
            }
            let bits = |s: &str| match s.parse::<u64>() {
                Ok(b) if (1..=MAX_ENTRY_BITS).contains(&b) && !s.starts_with('+') => Ok(b),
                _ => Err(at(format!("invalid size '{s}' (bits from 1 to 2^32)"))),
            };
            if fields[0] == "method" {
                let [_, b, m] = fields[..] else {
                    return Err(at("expected 'method BITS METHOD'".to_string()));
                };
                let b = bits(b)?;
                let m = parse_method(m).map_err(|e| at(e.to_string()))?;
                if p.methods.iter().any(|e| e.bits == b) {
                    return Err(at(format!("a second method entry for {b} bits")));
                }
                p.methods.push(MethodEntry { bits: b, method: m });
                continue;
            }
            let [op, form, b, algo] = fields[..] else {
                return Err(at(
                    "expected 'OP FORM BITS ALGORITHM' or 'method BITS METHOD'".to_string()
                ));
            };
            let op: Operation = op.parse().map_err(|e: Error| at(e.to_string()))?;
            let form: Form = form.parse().map_err(|e: Error| at(e.to_string()))?;
            let b = bits(b)?;
            let algorithm: Algorithm = algo.parse().map_err(|e: Error| at(e.to_string()))?;
            if algorithm == Algorithm::Auto {
                return Err(at(
                    "'auto' is what a profile decides; name a concrete algorithm".to_string()
                ));
            }
            if !form.admits(algorithm) {
                return Err(at(format!(
                    "{algorithm} does not apply to every modulus of form {form} ({})",
                    form.describe()
                )));
            }
            if p.algorithms.iter().any(|e| e.op == op && e.form == form && e.bits == b) {
                return Err(at(format!("a second entry for {op} {form} {b}")));
            }
            p.algorithms.push(AlgorithmEntry { op, form, bits: b, algorithm });
        }
        if !header {
            return Err(Error::InvalidArgument(format!(
                "profile: empty (expected the header '{HEADER}')"
            )));
        }
        Ok(p)
    }

    /// The text of the profile, in the format [`Profile::parse`] reads (entries sorted).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for n in &self.notes {
            for line in n.lines() {
                s.push_str(&format!("# {line}\n"));
            }
        }
        s.push_str(&format!("{HEADER}\n"));
        s.push_str("# The format: see the documentation of modred::modulus::profile.\n");
        let mut algos = self.algorithms.clone();
        algos.sort_by_key(|e| (e.op as u8, e.form, e.bits));
        if !algos.is_empty() {
            s.push_str("# op    form             bits    algorithm\n");
        }
        for e in &algos {
            s.push_str(&format!(
                "{:<6}  {:<15}  {:<6}  {}\n",
                e.op.name(),
                e.form.name(),
                e.bits,
                e.algorithm.name()
            ));
        }
        let mut methods = self.methods.clone();
        methods.sort_by_key(|e| e.bits);
        if !methods.is_empty() {
            s.push_str("# method  exponent-bits  method\n");
        }
        for e in &methods {
            s.push_str(&format!("method  {:<13}  {}\n", e.bits, method_name(e.method)));
        }
        s
    }

    /// Where it was read from, for messages: `None` when not from a file.
    pub(crate) fn source_name(&self) -> Option<String> {
        #[cfg(feature = "std")]
        {
            self.source.as_ref().map(|p| p.display().to_string())
        }
        #[cfg(not(feature = "std"))]
        {
            None
        }
    }

    /// Reads and parses the profile at `path` (with the `std` feature).
    ///
    /// Errors: the file cannot be read, is longer than [`MAX_FILE_BYTES`], is not UTF-8,
    /// or is malformed (the message names the file and the line).
    #[cfg(feature = "std")]
    pub fn load(path: &Path) -> Result<Profile, Error> {
        let fail = |what: String| {
            Error::InvalidArgument(format!("cannot use the profile {}: {what}", path.display()))
        };
        let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
        if !meta.is_file() {
            return Err(fail("not a regular file".to_string()));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(fail(format!("longer than {MAX_FILE_BYTES} bytes")));
        }
        let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|_| fail("not UTF-8 text".to_string()))?;
        let mut p = Profile::parse(&text).map_err(|e| fail(e.to_string()))?;
        p.source = Some(path.to_path_buf());
        Ok(p)
    }

    /// The profile at [`default_path`]: `Ok(None)` when there is no such path or file
    /// (or `MODRED_PROFILE` is set to the empty string), an error when the file exists
    /// but cannot be used, or when `MODRED_PROFILE` names a file that does not exist (with
    /// the `std` feature).
    #[cfg(feature = "std")]
    pub fn load_default() -> Result<Option<Profile>, Error> {
        let explicit = std::env::var_os(ENV_VAR);
        let Some(path) = default_path() else { return Ok(None) };
        if explicit.is_none() && !path.exists() {
            return Ok(None);
        }
        Profile::load(&path).map(Some)
    }

    /// Makes this the profile [`super::rule::choose`] follows (for every thread), replacing any
    /// other.
    pub fn activate(self) {
        set_active(Some(Arc::new(self)));
    }
}

/// Goes back to the built-in rule.
pub fn deactivate() {
    set_active(None);
}

/// The active profile, if any.
pub fn active() -> Option<Arc<Profile>> {
    #[cfg(feature = "std")]
    let slot = ACTIVE.read().unwrap_or_else(|e| e.into_inner());
    // Without std a spinning lock, held only to clone or replace the `Arc`.
    #[cfg(not(feature = "std"))]
    let slot = ACTIVE.lock_spinning();
    slot.clone()
}

/// Makes `p` the active profile (`None`: the built-in rule).
fn set_active(p: Option<Arc<Profile>>) {
    #[cfg(feature = "std")]
    let mut slot = ACTIVE.write().unwrap_or_else(|e| e.into_inner());
    #[cfg(not(feature = "std"))]
    let mut slot = ACTIVE.lock_spinning();
    // The old profile is dropped after the lock is released.
    let old = core::mem::replace(&mut *slot, p);
    drop(slot);
    drop(old);
}

#[cfg(feature = "std")]
static ACTIVE: std::sync::RwLock<Option<Arc<Profile>>> = std::sync::RwLock::new(None);
#[cfg(not(feature = "std"))]
static ACTIVE: crate::sync::Mutex<Option<Arc<Profile>>> = crate::sync::Mutex::new(None);

/// Where the profile lives: `$MODRED_PROFILE` if set (`None` when set to the empty
/// string), else `$XDG_CONFIG_HOME/modred/profile.txt`, else
/// `$HOME/.config/modred/profile.txt`; `None` when none of these is set (with the `std`
/// feature).
#[cfg(feature = "std")]
pub fn default_path() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(p) = std::env::var_os(ENV_VAR) {
        return (!p.is_empty()).then(|| PathBuf::from(p));
    }
    if let Some(x) = var("XDG_CONFIG_HOME") {
        return Some(PathBuf::from(x).join("modred").join("profile.txt"));
    }
    var("HOME").map(|h| PathBuf::from(h).join(".config").join("modred").join("profile.txt"))
}
