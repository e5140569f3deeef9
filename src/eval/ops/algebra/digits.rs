//! The law checks' shortcut: a proof, in O(rank²) steps, that a layout `A` read at the points of
//! a linear map gives the answer's values, so that the point-by-point check (O(size)) is only run
//! when the proof does not go through. It decides nothing on its own: `true` means "the law
//! holds at every point", `false` means "look at the points".
//!
//! The argument. Let `A` have flat modes `(s_j, d_j)` with positions `P_j = s_0 * ... * s_{j-1}`:
//! a point `x = sum_j x_j P_j` with digits `0 <= x_j < s_j` (the last digit unbounded) has
//! `A(x) = sum_j x_j d_j`. The map being checked sends coordinate `c_q < n_q` of its mode `q` to
//! `c_q t_q` in A's domain, and the answer sends it to `c_q r_q`. If each `t_q` is a single
//! digit, `t_q = f_q P_j` with `f_q < s_j`, and the digits the modes put on one position of A
//! never add up past it (`sum f_q (n_q - 1) <= s_j - 1`), then the point `sum_q c_q t_q` has the
//! digits `x_j = sum_{q at j} c_q f_q` with no carry, so `A` there is `sum_q c_q f_q d_j`: the
//! answer's value exactly when `r_q = f_q d_j` for every mode. Modes of size 1 add nothing; a
//! mode with `t_q = 0` adds nothing on either side when `r_q = 0`.
//!
//! `A` is first coalesced here (size-1 modes dropped, `(s,d),(s',s*d)` merged): its function on
//! its domain is unchanged, so the proof speaks of the same values inside the domain. Outside it,
//! only the checks that look there bound the last digit too (`last_bounded`), which keeps every
//! point inside.
//! May import: `ops::algebra::composition` (the checks' integer types).

use super::composition::Off;

/// `A`'s coalesced mode: shape, stride, position and how much of its digit the modes use.
type Digit<O> = (O, O, O, O);

/// Whether `R(i) == A(x(i))` holds at every point, where mode `q` of the map is `(t_q, n_q, r_q)`:
/// its step in A's domain, its size and the answer's step (see the module's argument). `false`
/// when the argument does not apply or an integer overflows.
pub(crate) fn holds<O: Off>(a: &[(O, O)], last_bounded: bool, modes: impl IntoIterator<Item = (O, O, O)>) -> bool {
    holds_opt(a, last_bounded, modes).unwrap_or(false)
}

fn holds_opt<O: Off>(a: &[(O, O)], last_bounded: bool, modes: impl IntoIterator<Item = (O, O, O)>) -> Option<bool> {
    let (zero, one) = (O::of(0), O::of(1));
    let mut digits: smallvec::SmallVec<[Digit<O>; 8]> = smallvec::SmallVec::new();
    // the position of the next digit
    let mut next = one;
    for &(s, d) in a {
        if s < one {
            return Some(false);
        }
        if s == one {
            continue;
        }
        if let Some(last) = digits.last_mut() {
            if last.0.mul(last.1) == Some(d) {
                last.0 = last.0.mul(s)?;
                next = next.mul(s)?;
                continue;
            }
        }
        digits.push((s, d, next, zero));
        next = next.mul(s)?;
    }
    let n = digits.len();
    for (t, size, r) in modes {
        if size == one {
            continue;
        }
        if size < one || t < zero {
            return Some(false);
        }
        if t == zero {
            if r != zero {
                return Some(false);
            }
            continue;
        }
        // the digit of A that holds `t`: the last one whose position is at most `t`
        let mut j = 0;
        while j + 1 < n && digits[j + 1].2 <= t {
            j += 1;
        }
        let Some(&(_, d, p, _)) = digits.get(j) else { return Some(false) };
        if t.rem(p)? != zero {
            return Some(false);
        }
        let f = t.div(p)?;
        if f.mul(d)? != r {
            return Some(false);
        }
        let used = &mut digits[j].3;
        *used = used.add(f.mul(size.sub(one)?)?)?;
    }
    for (j, &(s, _, _, used)) in digits.iter().enumerate() {
        if (last_bounded || j + 1 < n) && used >= s {
            return Some(false);
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::holds;

    /// Hand cases, each worked out on paper.
    #[test]
    fn proves_what_it_should_and_nothing_else() {
        // A = (4,8):(1,16); x = 4:1 (inside mode 0), R = 4:1
        assert!(holds::<i64>(&[(4, 1), (8, 16)], true, [(1, 4, 1)]));
        // x = 2:4 reaches mode 1 (P = 4): A gives 16 per step
        assert!(holds::<i64>(&[(4, 1), (8, 16)], true, [(4, 2, 16)]));
        assert!(!holds::<i64>(&[(4, 1), (8, 16)], true, [(4, 2, 4)]));
        // x = 8:1 carries out of mode 0 (size 4): no proof
        assert!(!holds::<i64>(&[(4, 1), (8, 16)], true, [(1, 8, 1)]));
        // ... unless A coalesces: (4,8):(1,4) is 32:1
        assert!(holds::<i64>(&[(4, 1), (8, 4)], true, [(1, 8, 1)]));
        // two modes sharing digit 0 of size 8: steps 1 (x2) and 2 (x2) use 1 + 2 = 3 <= 7
        assert!(holds::<i64>(&[(8, 3)], true, [(1, 2, 3), (2, 2, 6)]));
        // steps 1 (x4) and 2 (x4) use 3 + 6 = 9 > 7: a carry is possible
        assert!(!holds::<i64>(&[(8, 3), (2, 100)], true, [(1, 4, 3), (2, 4, 6)]));
        // the last digit is unbounded only where the check skips points outside A
        assert!(holds::<i64>(&[(4, 1), (2, 16)], false, [(4, 8, 16)]));
        assert!(!holds::<i64>(&[(4, 1), (2, 16)], true, [(4, 8, 16)]));
        // a step that is not a multiple of its digit's position
        assert!(!holds::<i64>(&[(4, 1), (8, 16)], true, [(6, 2, 32)]));
        // zero steps: nothing on either side
        assert!(holds::<i64>(&[(4, 1)], true, [(0, 5, 0)]));
        assert!(!holds::<i64>(&[(4, 1)], true, [(0, 5, 1)]));
        // negative steps are left to the points
        assert!(!holds::<i64>(&[(4, 1)], true, [(-1, 2, -1)]));
        // an A of size 1 holds no step
        assert!(!holds::<i64>(&[(1, 7)], true, [(1, 2, 7)]));
        // overflow: no proof, not a panic
        assert!(!holds::<i64>(&[(1 << 40, 1), (1 << 40, 1 << 41)], true, [(1 << 40, 2, 1 << 41)]));
    }
}
