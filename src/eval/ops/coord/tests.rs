use super::*;
use crate::eval::ops::tuple::tests::{p, pl};

#[test]
fn coords() {
    let a = pl("(4,8):(8,1)");
    assert_eq!(slice(&p("(_,1)"), &a).unwrap().to_string(), "(4):(8)");
    assert_eq!(eval_layout(&pl("(2,3):(1,2)"), &p("(7,7)")).unwrap().to_string(), "21");
    assert_eq!(idx2crd(&p("5"), &p("(2,3)")).unwrap().to_string(), "(1,2)");
    assert_eq!(idx2crd(&p("_5"), &p("(_2,_3)")).unwrap().to_string(), "(_1,_2)");
    assert_eq!(crd2idx(&p("5"), &p("(2,3)"), &p("(3,1)")).unwrap().to_string(), "5");
}

mod laws {
    use super::super::*;
    use crate::eval::int::Int;
    use crate::eval::ops::structure::{make_layout, make_layout_right};
    use proptest::prelude::*;

    fn shape() -> impl Strategy<Value = IntTuple> {
        let leaf = (1i64..6, any::<bool>()).prop_map(|(v, s)| I(Int::new(v, s)));
        leaf.prop_recursive(2, 8, 3, |inner| prop::collection::vec(inner, 1..4).prop_map(T))
    }

    fn val(t: &IntTuple) -> i64 {
        match t {
            I(i) => i.v,
            _ => -1,
        }
    }

    proptest! {
        /// Post: crd2idx(idx2crd(i, S), S) == i and the column-major layout maps idx2crd(i, S) to i.
        #[test]
        fn idx2crd_inverts_crd2idx(s in shape(), k in 0i64..1000) {
            let n = tp::size(&s).unwrap().v;
            let i = IntTuple::dy(k % n);
            let c = idx2crd(&i, &s).unwrap();
            prop_assert_eq!(val(&crd2idx_shape(&c, &s).unwrap()), k % n);
            let l = make_layout(&s).unwrap();
            prop_assert_eq!(val(&eval_layout(&l, &c).unwrap()), k % n);
            prop_assert_eq!(val(&eval_layout(&l, &i).unwrap()), k % n);
        }

        /// Post: for compact layouts, L(get_hier_coord(i)) == i and L(get_1d_coord(i)) == L(i).
        #[test]
        fn member_coords_invert_compact_layouts(s in shape(), k in 0i64..1000, right in any::<bool>()) {
            let n = tp::size(&s).unwrap().v;
            let i = IntTuple::dy(k % n);
            let l = if right { make_layout_right(&s).unwrap() } else { make_layout(&s).unwrap() };
            let h = get_hier_coord(&l, &i).unwrap();
            prop_assert_eq!(val(&eval_layout(&l, &h).unwrap()), k % n);
            let f = get_flat_coord(&l, &i).unwrap();
            prop_assert_eq!(f.rank(), l.shape.rank());
            let d = get_1d_coord(&l, &i).unwrap();
            prop_assert_eq!(val(&eval_layout(&l, &d).unwrap()), k % n);
        }

        /// Post: slice and dice split a layout's modes: sizes multiply to the whole.
        #[test]
        fn slice_and_dice_partition_modes(s in shape(), mask in prop::collection::vec(any::<bool>(), 8)) {
            let l = make_layout(&s).unwrap();
            let mut k = 0;
            let c = s.modes().iter().map(|_| { k += 1; if mask[(k - 1) % 8] { Under } else { IntTuple::dy(0) } }).collect::<Vec<_>>();
            let c = if s.is_tuple() { T(c) } else { c.into_iter().next().unwrap() };
            let a = tp::size(&slice(&c, &l).unwrap().shape).unwrap().v;
            let b = tp::size(&dice(&c, &l).unwrap().shape).unwrap().v;
            prop_assert_eq!(a * b, tp::size(&s).unwrap().v);
        }
    }
}
