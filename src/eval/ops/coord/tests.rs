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
