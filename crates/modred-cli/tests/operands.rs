//! Numbers too long for an argument: `@path` (text or, with `--bytes`, raw big-endian
//! bytes), `@-` for standard input, `--out FILE` for the result; a million-bit product
//! checked against num-bigint.

use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use util::{check_error, run, BIN};

mod util;

fn random(rng: &mut SplitMix64, bits: usize) -> BigUint {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.next_u64()).collect();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    BigUint::from_bytes_le(&bytes) >> (words.len() * 64 - bits)
}

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("modred-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn file(&self, name: &str, data: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, data).unwrap();
        format!("@{}", p.display())
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

#[test]
fn a_million_bit_product_from_files() {
    let mut rng = SplitMix64::new(20);
    let bits = 1_000_000;
    let m = random(&mut rng, bits) | (BigUint::from(1u8) << (bits - 1)) | BigUint::from(1u8);
    let (x, y) = (random(&mut rng, bits), random(&mut rng, bits));
    let want = &x * &y % &m;
    let dir = Dir::new("operands-text");
    // Text: x in decimal with surrounding whitespace, y and m in hex; the answer to a file.
    let (fx, fy, fm) = (
        dir.file("x", format!("  {x}\n").as_bytes()),
        dir.file("y", format!("0x{y:x}").as_bytes()),
        dir.file("m", format!("0x{m:x}\n").as_bytes()),
    );
    let out = dir.path("r");
    let o = run(&["mulmod", "--hex", &fx, &fy, &fm, "--out", out.to_str().unwrap()]);
    assert!(o.status.success() && o.stdout.is_empty(), "{o:?}");
    assert_eq!(read(&out), format!("0x{want:x}\n").into_bytes());
    // Raw big-endian bytes both ways, the answer on stdout.
    let (bx, by, bm) = (
        dir.file("x.bin", &x.to_bytes_be()),
        dir.file("y.bin", &y.to_bytes_be()),
        dir.file("m.bin", &m.to_bytes_be()),
    );
    let o = run(&["mulmod", "--bytes", &bx, &by, &bm]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(o.stdout, want.to_bytes_be());
    // Standard input for one of them.
    let mut child = Command::new(BIN)
        .args(["mulmod", "--hex", &fx, "@-", &fm])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = format!("0x{y:x}\n");
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()).unwrap());
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), format!("0x{want:x}\n"));
}

#[test]
fn powm_and_reduce_take_files_too() {
    let dir = Dir::new("operands-small");
    let e = dir.file("e", b"65537");
    let m = dir.file("m", b"1000003\n");
    let o = run(&["powm", "3", &e, &m]);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "486750\n");
    let o = run(&["reduce", "--bytes", &dir.file("x", &[1, 0, 0]), &dir.file("mb", &[0, 7])]);
    assert_eq!(o.stdout, vec![(65536 % 7) as u8]);
    let o = run(&["reduce", "--bytes", &dir.file("z", &[]), &dir.file("mb2", &[7])]);
    assert_eq!(o.stdout, vec![0], "zero is one zero byte");
}

#[test]
fn bad_operands_are_one_error_line() {
    let dir = Dir::new("operands-bad");
    let bin = dir.file("bin", &[0xff, 0xfe]);
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["reduce".into(), "@".into(), "7".into()], "expected @path or @-"),
        (
            vec!["reduce".into(), format!("@{}", dir.path("missing").display()), "7".into()],
            "cannot read x from",
        ),
        (vec!["reduce".into(), bin.clone(), "7".into()], "not text"),
        (vec!["reduce".into(), "@/dev/zero".into(), "7".into()], "over the 256 MiB limit"),
        (vec!["reduce".into(), "--bytes".into(), "5".into(), "7".into()], "@path or @-"),
        (vec!["reduce".into(), "--bytes".into(), "--hex".into(), bin, "7".into()], "exclude"),
        (vec!["mulmod".into(), "@-".into(), "@-".into(), "7".into()], "only one number"),
        (vec!["reduce".into(), dir.file("t", b"12x"), "7".into()], "invalid x '12x'"),
        (
            vec![
                "reduce".into(),
                "5".into(),
                "7".into(),
                "--out".into(),
                "/nonexistent/d/f".into(),
            ],
            "cannot write the result",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let message = check_error(&args.join(" "), &run(&args));
        assert!(message.contains(needle), "{args:?}: {message}");
    }
}
