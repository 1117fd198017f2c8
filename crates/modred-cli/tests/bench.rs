//! `modred bench`'s output formats, end to end, on small sizes with `--quick` (the figures
//! themselves are not asserted: speed is never checked in a test; only that every
//! requested candidate was timed or marked n/a, and that the baseline's ratio is 1).

use serde_json::Value;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_modred");

/// Runs `modred bench --quick ARGS`, which must succeed with a clean stderr.
fn bench(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .arg("bench")
        .arg("--quick")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run modred");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench {args:?}: {:?} {stderr}", out.status);
    assert!(stderr.is_empty(), "bench {args:?} wrote to stderr: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    serde_json::from_str(&bench(&a)).expect("one JSON document")
}

fn results(v: &Value) -> &Vec<Value> {
    v["results"].as_array().expect("results")
}

#[test]
fn json_has_every_candidate_and_the_baseline_at_one() {
    let v = json(&[
        "--algo",
        "barrett,montgomery,classical",
        "--bits",
        "64,128",
        "--op",
        "mulmod,reduce",
    ]);
    assert_eq!(v["baseline"], "barrett");
    assert_eq!(v["seed"], 1);
    let r = results(&v);
    assert_eq!(r.len(), 3 * 2 * 2);
    for op in ["mulmod", "reduce"] {
        for bits in [64, 128] {
            for algo in ["barrett", "montgomery", "classical"] {
                let row = r
                    .iter()
                    .find(|x| x["op"] == op && x["bits"] == bits && x["algorithm"] == algo)
                    .unwrap_or_else(|| panic!("{op} {bits} {algo} missing"));
                let ns = row["ns"].as_f64().unwrap();
                let median = row["median_ns"].as_f64().unwrap();
                assert!(ns > 0.0 && ns.is_finite() && ns <= median, "{row}");
                assert!(row["ratio"].as_f64().unwrap() > 0.0, "{row}");
                assert!(row["rounds"].as_u64().unwrap() >= 3, "{row}");
                assert_eq!(row["modulus"], "random odd");
                if algo == "barrett" {
                    assert_eq!(row["ratio"].as_f64().unwrap(), 1.0, "{row}");
                }
                let to = row["ratio_to"].as_object().unwrap();
                assert_eq!(to.len(), 3, "{row}");
                assert_eq!(to[algo].as_f64().unwrap(), 1.0, "{row}");
                assert_eq!(to["barrett"], row["ratio"], "{row}");
            }
        }
    }
}

#[test]
fn special_forms_get_their_moduli_and_na_where_none_exists() {
    let v = json(&[
        "--algo",
        "nist,pseudo-mersenne,solinas,montgomery",
        "--bits",
        "192,200",
        "--baseline",
        "montgomery",
    ]);
    let r = results(&v);
    let find = |algo: &str, bits: u64| {
        r.iter().find(|x| x["algorithm"] == algo && x["bits"] == bits).unwrap().clone()
    };
    assert_eq!(find("nist", 192)["modulus"], "P-192");
    assert!(find("nist", 192)["ns"].as_f64().unwrap() > 0.0);
    assert!(find("nist", 200)["ns"].is_null());
    assert!(find("nist", 200)["note"].as_str().unwrap().contains("no NIST prime has 200 bits"));
    assert!(find("solinas", 200)["ns"].is_null());
    assert!(find("pseudo-mersenne", 200)["modulus"].as_str().unwrap().starts_with("2^200 - 0x"));
    assert!(find("pseudo-mersenne", 200)["ratio"].as_f64().unwrap() > 0.0);
    assert_eq!(find("montgomery", 200)["ratio"].as_f64().unwrap(), 1.0);
}

#[test]
fn auto_says_what_it_chose() {
    let v = json(&["--algo", "auto", "--bits", "255", "--op", "mulmod,reduce,powm"]);
    for row in results(&v) {
        let label = row["label"].as_str().unwrap();
        assert!(label.starts_with("auto (") && label.ends_with(')'), "{label}");
        assert_eq!(row["ratio"].as_f64().unwrap(), 1.0);
    }
    let v = json(&[
        "--algo",
        "auto",
        "--modulus",
        "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    ]);
    let p256: modred::Nat = modred::reduce::NistPrime::P256.modulus();
    let chosen = modred::modulus::choose(&p256, modred::Operation::MulMod);
    assert_eq!(results(&v)[0]["label"], format!("auto ({chosen})"));
    assert_eq!(results(&v)[0]["modulus"], "given");
}

#[test]
fn one_given_modulus_for_every_algorithm() {
    // 2^127 − 1: odd, pseudo-Mersenne; not a NIST prime.
    let m = "0x7fffffffffffffffffffffffffffffff";
    let v = json(&[
        "--algo",
        "montgomery,barrett,pseudo-mersenne,nist",
        "--modulus",
        m,
        "--op",
        "sqrmod,powm",
    ]);
    let r = results(&v);
    assert_eq!(r.len(), 8);
    for row in r {
        assert_eq!(row["bits"], 127);
        if row["algorithm"] == "nist" {
            assert!(row["note"].as_str().unwrap().contains("does not apply"), "{row}");
        } else {
            assert!(row["ns"].as_f64().unwrap() > 0.0, "{row}");
        }
    }
}

#[test]
fn table_csv_and_markdown() {
    let args = ["--algo", "montgomery,nist", "--bits", "64,256"];
    let table = bench(&args);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("op") && lines[0].ends_with("ratio"), "{table}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("mulmod")).count(), 4, "{table}");
    let na = lines.iter().find(|l| l.contains("nist") && l.contains(" 64 ")).expect(&table);
    assert!(na.contains("n/a: no NIST prime has 64 bits"), "{na}");
    assert!(lines.iter().any(|l| l.contains("P-256") && l.contains(" ns")), "{table}");
    assert!(table.contains("ratio: a modred row's time ÷ montgomery's"), "{table}");

    let mut a = args.to_vec();
    a.extend(["--format", "csv"]);
    let csv = bench(&a);
    let mut rows = csv.lines();
    let header = rows.next().unwrap();
    assert_eq!(header, "op,bits,algorithm,label,modulus,ns,median_ns,ratio,rounds,note");
    let rows: Vec<Vec<&str>> = rows.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(r.len(), 10, "{r:?}");
        if r[2] == "nist" && r[1] == "64" {
            assert!(r[5].is_empty() && r[9].contains("no NIST prime"), "{r:?}");
        } else {
            assert!(r[5].parse::<f64>().unwrap() > 0.0, "{r:?}");
        }
    }

    let mut a = args.to_vec();
    a.extend(["--format", "markdown", "--op", "mulmod,sqrmod"]);
    let md = bench(&a);
    assert!(md.contains("**mulmod**") && md.contains("**sqrmod**"), "{md}");
    assert!(md.contains("| bits | montgomery | nist |"), "{md}");
    assert!(md.contains("| 64 |") && md.contains(" — |"), "{md}");
    assert!(md.contains("| 256 |") && md.contains("(1.00)"), "{md}");
}

#[test]
fn every_algorithm_at_a_small_size() {
    let v = json(&["--algo", "all", "--bits", "64", "--op", "mulmod,powm"]);
    assert_eq!(v["baseline"], "montgomery");
    let r = results(&v);
    assert_eq!(r.len(), 2 * modred::Algorithm::ALL.len());
    let timed = r.iter().filter(|x| x["ns"].is_f64()).count();
    // nist has no 64-bit prime; every other algorithm has a modulus of 64 bits.
    assert_eq!(timed, r.len() - 2, "{v}");
}

#[cfg(feature = "anchors")]
#[test]
fn anchors_beside_ours() {
    let v = json(&[
        "--algo",
        "montgomery",
        "--bits",
        "256",
        "--op",
        "reduce,mulmod,sqrmod,powm",
        "--anchors",
        "--baseline",
        "gmp-powm",
    ]);
    let ids: Vec<&str> = results(&v).iter().map(|x| x["algorithm"].as_str().unwrap()).collect();
    for id in [
        "gmp-rem",
        "openssl-mont-redc",
        "gmp-mul",
        "gmp-mulmod",
        "openssl-mont-mul",
        "openssl-nist256",
        "gmp-sqr",
        "openssl-mont-sqr",
        "gmp-powm",
        "gmp-powm-sec",
        "openssl-powm-ct",
    ] {
        assert!(ids.contains(&id), "{id} missing: {ids:?}");
    }
    for row in results(&v) {
        let has_ratio = row["ratio"].is_f64();
        assert_eq!(has_ratio, row["op"] == "powm", "{row}");
    }
}

#[test]
fn through_the_modulus_api() {
    let v = json(&[
        "--algo",
        "montgomery,barrett,auto",
        "--bits",
        "128,1024",
        "--op",
        "reduce,mulmod,sqrmod",
        "--api",
        "modulus",
    ]);
    let r = results(&v);
    assert_eq!(r.len(), 3 * 2 * 3);
    assert!(r.iter().all(|x| x["ns"].as_f64().unwrap() > 0.0), "{v}");
}

/// `--api modulus-alloc` (a new residue per call) at the sizes of every path `Modulus`
/// takes: fixed-size (256), IFMA or the slice reducer (2048), the boxed ones (barrett).
#[test]
fn through_the_allocating_modulus_api() {
    let v = json(&[
        "--algo",
        "montgomery,barrett,auto",
        "--bits",
        "256,2048",
        "--op",
        "mulmod,sqrmod",
        "--api",
        "modulus-alloc",
    ]);
    let r = results(&v);
    assert_eq!(r.len(), 3 * 2 * 2);
    assert!(r.iter().all(|x| x["ns"].as_f64().unwrap() > 0.0), "{v}");
}
