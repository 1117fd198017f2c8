//! Paper 004's published Table II (Leonardo Spectrum 2002; ASIC: 0.6 µm CMOS, area in
//! gates; FPGA: Xilinx Virtex-2, area in slices; throughput in Mb/s).

/// One row: `k`, then (area, throughput) of the conventional and of the new multiplier.
pub struct Row {
    pub k: u64,
    pub plain: (f64, f64),
    pub recoded: (f64, f64),
}

/// The ASIC half of Table II.
pub const ASIC: [Row; 4] = [
    Row { k: 256, plain: (8206.0, 108.77), recoded: (8847.0, 147.44) },
    Row { k: 512, plain: (16282.0, 108.08), recoded: (17556.0, 141.44) },
    Row { k: 768, plain: (24532.0, 100.06), recoded: (26445.0, 139.83) },
    Row { k: 1024, plain: (32490.0, 99.6), recoded: (35032.0, 139.62) },
];

/// The FPGA half of Table II.
pub const FPGA: [Row; 4] = [
    Row { k: 256, plain: (1574.0, 64.24), recoded: (1576.0, 96.94) },
    Row { k: 512, plain: (3408.0, 45.51), recoded: (3416.0, 75.80) },
    Row { k: 768, plain: (5177.0, 45.44), recoded: (5188.0, 74.90) },
    Row { k: 1024, plain: (6814.0, 44.95), recoded: (6830.0, 68.86) },
];

/// The relative change (new/old − 1, in %) of area and throughput in `rows` at `k`.
pub fn change(rows: &[Row], k: u64) -> Option<(f64, f64)> {
    rows.iter()
        .find(|r| r.k == k)
        .map(|r| (100.0 * (r.recoded.0 / r.plain.0 - 1.0), 100.0 * (r.recoded.1 / r.plain.1 - 1.0)))
}
