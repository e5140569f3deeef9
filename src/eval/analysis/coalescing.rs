//! Global-memory coalescing: one warp request touches some 32-byte sectors; the minimum is the
//! number of sectors its distinct bytes could fill. The degree is sectors / minimum over all
//! requests, rounded up: 1 is fully coalesced.
//! May import: `analysis::access`.

use super::access::{ceil_div, Group, Pattern};
use std::collections::BTreeSet;

pub const SECTOR: i64 = 32;

#[derive(Clone, Debug)]
pub struct GroupCount {
    pub label: String,
    pub sectors: i64,
    pub minimum: i64,
    pub bytes: i64,
}

#[derive(Clone, Debug)]
pub struct Count {
    pub groups: Vec<GroupCount>,
    pub sectors: i64,
    pub minimum: i64,
}

impl Count {
    pub fn degree(&self) -> i64 {
        if self.minimum == 0 {
            1
        } else {
            ceil_div(self.sectors, self.minimum)
        }
    }
}

pub fn count_group(g: &Group) -> GroupCount {
    let mut bytes = BTreeSet::new();
    let mut sectors = BTreeSet::new();
    for t in &g.touches {
        for b in t.addr..t.addr + t.bytes {
            bytes.insert(b);
            sectors.insert(b.div_euclid(SECTOR));
        }
    }
    let n = bytes.len() as i64;
    GroupCount { label: g.label.clone(), sectors: sectors.len() as i64, minimum: ceil_div(n, SECTOR), bytes: n }
}

pub fn count(p: &Pattern) -> Count {
    let groups: Vec<GroupCount> = p.groups.iter().map(count_group).collect();
    Count { sectors: groups.iter().map(|g| g.sectors).sum(), minimum: groups.iter().map(|g| g.minimum).sum(), groups }
}

const SHOWN: usize = 16;

pub fn explain(p: &Pattern, c: &Count) -> Vec<String> {
    let mut out = vec![
        format!("  access: {}", p.what),
        format!("  global memory: {SECTOR}-byte sectors; minimum = ceil(distinct bytes / {SECTOR}) per request"),
    ];
    for g in c.groups.iter().take(SHOWN) {
        out.push(format!("  {}: {} bytes in {} sectors (minimum {})", g.label, g.bytes, g.sectors, g.minimum));
    }
    if c.groups.len() > SHOWN {
        out.push(format!("  ... {} more requests", c.groups.len() - SHOWN));
    }
    out.push(format!(
        "  total: {} sectors against a minimum of {}: degree {}{}",
        c.sectors,
        c.minimum,
        c.degree(),
        if c.degree() == 1 { " (coalesced)" } else { "" }
    ));
    out
}
