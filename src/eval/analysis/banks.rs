//! Shared-memory bank conflicts: 32 banks of 4-byte words; the threads of one request group are
//! served in as many wavefronts as the most distinct words any one bank holds among their bytes
//! (threads reading the same word share it). The ideal is the fewest wavefronts the distinct
//! words could take (32 per wavefront). The conflict degree is wavefronts / ideal over all
//! requests, rounded up: 1 is conflict-free, 8 is 8-way.
//! May import: `analysis::access` and the value types.

use super::access::{ceil_div, Group, Pattern};
use std::collections::{BTreeMap, BTreeSet};

pub const BANKS: i64 = 32;
pub const WORD: i64 = 4;

/// One request group counted.
#[derive(Clone, Debug)]
pub struct GroupCount {
    pub label: String,
    pub wavefronts: i64,
    pub ideal: i64,
    /// The banks holding the most distinct words (when more than one), with those words' byte
    /// addresses.
    pub worst: Vec<(i64, Vec<i64>)>,
}

#[derive(Clone, Debug)]
pub struct Count {
    pub groups: Vec<GroupCount>,
    pub wavefronts: i64,
    pub ideal: i64,
}

impl Count {
    /// Wavefronts / ideal, rounded up (1 when nothing is accessed).
    pub fn degree(&self) -> i64 {
        if self.ideal == 0 {
            1
        } else {
            ceil_div(self.wavefronts, self.ideal)
        }
    }
}

pub fn count_group(g: &Group) -> GroupCount {
    // bank -> distinct word indices
    let mut banks: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
    let mut words = BTreeSet::new();
    for t in &g.touches {
        let (first, last) = (t.addr.div_euclid(WORD), (t.addr + t.bytes - 1).div_euclid(WORD));
        for w in first..=last {
            words.insert(w);
            banks.entry(w.rem_euclid(BANKS)).or_default().insert(w);
        }
    }
    let wavefronts = banks.values().map(|s| s.len() as i64).max().unwrap_or(0);
    let ideal = ceil_div(words.len() as i64, BANKS);
    let worst = if wavefronts > 1 {
        banks
            .iter()
            .filter(|(_, s)| s.len() as i64 == wavefronts)
            .map(|(b, s)| (*b, s.iter().map(|w| w * WORD).collect()))
            .collect()
    } else {
        Vec::new()
    };
    GroupCount { label: g.label.clone(), wavefronts, ideal, worst }
}

pub fn count(p: &Pattern) -> Count {
    let groups: Vec<GroupCount> = p.groups.iter().map(count_group).collect();
    let wavefronts = groups.iter().map(|g| g.wavefronts).sum();
    let ideal = groups.iter().map(|g| g.ideal).sum();
    Count { groups, wavefronts, ideal }
}

/// Most request groups listed one by one in `explain`.
const SHOWN: usize = 16;

/// The lines of `explain bank_conflicts(...)`.
pub fn explain(p: &Pattern, c: &Count) -> Vec<String> {
    let mut out = vec![
        format!("  access: {}", p.what),
        format!(
            "  shared memory: {BANKS} banks x {WORD} bytes; a request group takes as many wavefronts as the most \
             distinct words one bank holds; ideal = ceil(distinct words / {BANKS})"
        ),
    ];
    for g in c.groups.iter().take(SHOWN) {
        let mut l = format!("  {}: {} wavefront{} (ideal {})", g.label, g.wavefronts, plural(g.wavefronts), g.ideal);
        if let Some((bank, addrs)) = g.worst.first() {
            let list: Vec<String> = addrs.iter().take(8).map(|a| a.to_string()).collect();
            let more = if addrs.len() > 8 { ", ..." } else { "" };
            l.push_str(&format!("; bank {bank} holds {} words (bytes {}{more})", addrs.len(), list.join(", ")));
            if g.worst.len() > 1 {
                let others: Vec<String> = g.worst.iter().skip(1).take(8).map(|(b, _)| b.to_string()).collect();
                l.push_str(&format!(
                    ", as do banks {}{}",
                    others.join(", "),
                    if g.worst.len() > 9 { ", ..." } else { "" }
                ));
            }
        }
        out.push(l);
    }
    if c.groups.len() > SHOWN {
        let rest = &c.groups[SHOWN..];
        let worst = rest.iter().map(|g| g.wavefronts).max().unwrap_or(0);
        out.push(format!("  ... {} more request groups (at most {worst} wavefronts each)", rest.len()));
    }
    out.push(format!(
        "  total: {} wavefronts against an ideal of {}: degree {} ({})",
        c.wavefronts,
        c.ideal,
        c.degree(),
        if c.degree() == 1 { "conflict-free".to_string() } else { format!("{}-way", c.degree()) }
    ));
    out
}

fn plural(n: i64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
