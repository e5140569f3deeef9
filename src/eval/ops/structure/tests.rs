use super::*;
use crate::eval::ops::tuple::tests::{p, pl};

#[test]
fn make_layouts() {
    assert_eq!(make_layout(&p("8")).unwrap().to_string(), "8:_1");
    assert_eq!(make_layout(&p("(_4,_1,3)")).unwrap().to_string(), "(_4,_1,3):(_1,_0,_4)");
    assert_eq!(make_layout_right(&p("(2,3)")).unwrap().to_string(), "(2,3):(3,_1)");
    assert_eq!(make_layout_cat(&[pl("8:1")]).to_string(), "(8):(1)");
    assert_eq!(make_identity_layout(&p("((2,3),4)")).to_string(), "((2,3),4):((_1@0@0,_1@1@0),_1@1)");
    assert_eq!(cosize(&pl("(4,_1):(1,_0)")).unwrap().to_string(), "4");
    assert_eq!(filter(&pl("(_4,_2,_3):(_1,_0,_4)")).unwrap().to_string(), "_12:_1");
}
