//! MMA operations as data: one row per instruction, CuTe's `MMA_Traits` (`ThrID`, `Shape_MNK`,
//! `ALayout`, `BLayout`, `CLayout`) written exactly as CuTe prints them.
//!
//! Rows for SM61, SM70, SM75, SM80, SM89 and SM90 (non-GMMA) were read from
//! `cute/atom/mma_traits_sm{61,70,75,80,89,90}.hpp` and checked against the oracle
//! (`mma_atom(NAME)` prints every field). The SM90 GMMA operations are families: one row per
//! (types, K) with the layouts of `mma_traits_sm90_gmma.hpp` (`GMMA::ABLayout<M,K>`,
//! `GMMA::CLayout_64xN`, `GMMA::ALayout_64x{8,16,32}`) instantiated for every N CuTe defines.
//! May import: `eval::*` data types, `atoms::lit`, `atoms::types`.

use super::lit::{parse_layout, parse_tuple};
use super::types::value_type_bits;
use crate::eval::builtins::TArg;
use crate::eval::error::{EvalError, R};
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;

/// An MMA operation's traits (what `MMA_Atom<Op>` prints).
#[derive(Clone, Debug, PartialEq)]
pub struct MmaTraits {
    /// The operation as written, e.g. `SM90_64x64x16_F16F16F16_SS<K,K>`.
    pub name: String,
    pub thr_id: Layout,
    pub shape_mnk: IntTuple,
    /// (thread, value) -> (m,k) index
    pub a: Layout,
    /// (thread, value) -> (n,k) index
    pub b: Layout,
    /// (thread, value) -> (m,n) index
    pub c: Layout,
}

/// name | ThrID | Shape_MNK | ALayout | BLayout | CLayout
///
/// (Some rows are CuTe's own oddities, kept as CuTe prints them: the S4/U4 rows have rank-1
/// value modes `(_8):(_8)`, and the 16x8x128 U1 A layout has a stride that is not congruent
/// with its shape.)
const MMA_ROWS: &str = "
SM61_DP4A                           | _1:_0            | (_1,_1,_4)    | (_1,_4):(_0,_1)                                  | (_1,_4):(_0,_1)                           | (_1,_1):(_0,_0)
SM61_DP2A                           | _1:_0            | (_1,_1,_2)    | (_1,_2):(_0,_1)                                  | (_1,_2):(_0,_1)                           | (_1,_1):(_0,_0)
SM70_8x8x4_F16F16F16F16_TN          | (_4,_2):(_1,_16) | (_8,_8,_4)    | (_8,_4):(_1,_8)                                  | (_8,_4):(_1,_8)                           | (_8,_8):(_1,_8)
SM70_8x8x4_F16F16F16F16_NT          | (_4,_2):(_1,_16) | (_8,_8,_4)    | ((_4,_2),_4):((_8,_4),_1)                        | ((_4,_2),_4):((_8,_4),_1)                 | (_8,_8):(_1,_8)
SM70_8x8x4_F16F16F16F16_NN          | (_4,_2):(_1,_16) | (_8,_8,_4)    | ((_4,_2),_4):((_8,_4),_1)                        | (_8,_4):(_1,_8)                           | (_8,_8):(_1,_8)
SM70_8x8x4_F16F16F16F16_TT          | (_4,_2):(_1,_16) | (_8,_8,_4)    | (_8,_4):(_1,_8)                                  | ((_4,_2),_4):((_8,_4),_1)                 | (_8,_8):(_1,_8)
SM70_8x8x4_F32F16F16F32_TN          | (_4,_2):(_1,_16) | (_8,_8,_4)    | (_8,_4):(_1,_8)                                  | (_8,_4):(_1,_8)                           | ((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))
SM70_8x8x4_F32F16F16F32_NT          | (_4,_2):(_1,_16) | (_8,_8,_4)    | ((_4,_2),_4):((_8,_4),_1)                        | ((_4,_2),_4):((_8,_4),_1)                 | ((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))
SM70_8x8x4_F32F16F16F32_NN          | (_4,_2):(_1,_16) | (_8,_8,_4)    | ((_4,_2),_4):((_8,_4),_1)                        | (_8,_4):(_1,_8)                           | ((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))
SM70_8x8x4_F32F16F16F32_TT          | (_4,_2):(_1,_16) | (_8,_8,_4)    | (_8,_4):(_1,_8)                                  | ((_4,_2),_4):((_8,_4),_1)                 | ((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))
SM75_16x8x8_F32F16F16F32_TN         | _32:_1           | (_16,_8,_8)   | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))            | ((_4,_8),_2):((_16,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM75_8x8x16_S32S8S8S32_TN           | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x8_F16F16F16F16_TN         | _32:_1           | (_16,_8,_8)   | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))            | ((_4,_8),_2):((_16,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x16_F16F16F16F16_TN        | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))    | ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))     | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x8_F32F16F16F32_TN         | _32:_1           | (_16,_8,_8)   | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))            | ((_4,_8),_2):((_16,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x16_F32F16F16F32_TN        | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))    | ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))     | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x8_F32BF16BF16F32_TN       | _32:_1           | (_16,_8,_8)   | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))            | ((_4,_8),_2):((_16,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x16_F32BF16BF16F32_TN      | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))    | ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))     | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x4_F32TF32TF32F32_TN       | _32:_1           | (_16,_8,_4)   | ((_4,_8),_2):((_16,_1),_8)                       | ((_4,_8),_1):((_8,_1),_0)                 | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x8_F32TF32TF32F32_TN       | _32:_1           | (_16,_8,_8)   | ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))            | ((_4,_8),_2):((_8,_1),_32)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x4_F64F64F64F64_TN          | _32:_1           | (_8,_8,_4)    | ((_4,_8),_1):((_8,_1),_0)                        | ((_4,_8),_1):((_8,_1),_0)                 | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x4_C64C64C64C64_TN          | _32:_1           | (_8,_8,_4)    | ((_4,_8),_1):((_8,_1),_0)                        | ((_4,_8),_1):((_8,_1),_0)                 | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x4_GC64C64C64GC64_TN        | _32:_1           | (_8,_8,_4)    | ((_4,_8),_1):((_8,_1),_0)                        | ((_4,_8),_1):((_8,_1),_0)                 | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x16_S32S8S8S32_TN           | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x16_S32S8S8S32_TN_SATURATE  | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x16_S32S8S8S32_TN          | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_4,_2)):((_64,_1),(_16,_8))            | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x16_S32S8S8S32_TN_SATURATE | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_4,_2)):((_64,_1),(_16,_8))            | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32S8S8S32_TN          | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32S8S8S32_TN_SATURATE | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x16_S32S8U8S32_TN           | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x16_S32S8U8S32_TN_SATURATE  | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x16_S32S8U8S32_TN          | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_4,_2)):((_64,_1),(_16,_8))            | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x16_S32S8U8S32_TN_SATURATE | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_4,_2)):((_64,_1),(_16,_8))            | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32S8U8S32_TN          | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32S8U8S32_TN_SATURATE | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x16_S32U8S8S32_TN           | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x16_S32U8S8S32_TN_SATURATE  | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x16_S32U8S8S32_TN          | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_4,_2)):((_64,_1),(_16,_8))            | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x16_S32U8S8S32_TN_SATURATE | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_4,_2)):((_64,_1),(_16,_8))            | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32U8S8S32_TN          | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32U8S8S32_TN_SATURATE | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x16_S32U8U8S32_TN           | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x16_S32U8U8S32_TN_SATURATE  | _32:_1           | (_8,_8,_16)   | ((_4,_8),_4):((_32,_1),_8)                       | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x16_S32U8U8S32_TN          | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_4,_2)):((_64,_1),(_16,_8))            | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x16_S32U8U8S32_TN_SATURATE | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_4,_2)):((_64,_1),(_16,_8))            | ((_4,_8),_4):((_32,_1),_8)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32U8U8S32_TN          | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32U8U8S32_TN_SATURATE | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x32_S32S4S4S32_TN           | _32:_1           | (_8,_8,_32)   | ((_4,_8),(_8)):((_64,_1),(_8))                   | ((_4,_8),(_8)):((_64,_1),(_8))            | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x32_S32S4S4S32_TN_SATURATE  | _32:_1           | (_8,_8,_32)   | ((_4,_8),(_8)):((_64,_1),(_8))                   | ((_4,_8),(_8)):((_64,_1),(_8))            | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x32_S32S4S4S32_TN          | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_8,_2)):((_128,_1),(_16,_8))           | ((_4,_8),(_8)):((_32,_1),(_8))            | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32S4S4S32_TN_SATURATE | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_8,_2)):((_128,_1),(_16,_8))           | ((_4,_8),(_8)):((_32,_1),(_8))            | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x64_S32S4S4S32_TN          | _32:_1           | (_16,_8,_64)  | ((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))   | ((_4,_8),(_8,_2)):((_64,_1),(_8,_256))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x64_S32S4S4S32_TN_SATURATE | _32:_1           | (_16,_8,_64)  | ((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))   | ((_4,_8),(_8,_2)):((_64,_1),(_8,_256))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x32_S32S4U4S32_TN           | _32:_1           | (_8,_8,_32)   | ((_4,_8),(_8)):((_64,_1),(_8))                   | ((_4,_8),(_8)):((_64,_1),(_8))            | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x32_S32S4U4S32_TN_SATURATE  | _32:_1           | (_8,_8,_32)   | ((_4,_8),(_8)):((_64,_1),(_8))                   | ((_4,_8),(_8)):((_64,_1),(_8))            | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x32_S32S4U4S32_TN          | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_8,_2)):((_128,_1),(_16,_8))           | ((_4,_8),(_8)):((_32,_1),(_8))            | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32S4U4S32_TN_SATURATE | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_8,_2)):((_128,_1),(_16,_8))           | ((_4,_8),(_8)):((_32,_1),(_8))            | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x64_S32S4U4S32_TN          | _32:_1           | (_16,_8,_64)  | ((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))   | ((_4,_8),(_8,_2)):((_64,_1),(_8,_256))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x64_S32S4U4S32_TN_SATURATE | _32:_1           | (_16,_8,_64)  | ((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))   | ((_4,_8),(_8,_2)):((_64,_1),(_8,_256))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x32_S32U4S4S32_TN           | _32:_1           | (_8,_8,_32)   | ((_4,_8),(_8)):((_64,_1),(_8))                   | ((_4,_8),(_8)):((_64,_1),(_8))            | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x32_S32U4S4S32_TN_SATURATE  | _32:_1           | (_8,_8,_32)   | ((_4,_8),(_8)):((_64,_1),(_8))                   | ((_4,_8),(_8)):((_64,_1),(_8))            | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x32_S32U4S4S32_TN          | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_8,_2)):((_128,_1),(_16,_8))           | ((_4,_8),(_8)):((_32,_1),(_8))            | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32U4S4S32_TN_SATURATE | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_8,_2)):((_128,_1),(_16,_8))           | ((_4,_8),(_8)):((_32,_1),(_8))            | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x64_S32U4S4S32_TN          | _32:_1           | (_16,_8,_64)  | ((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))   | ((_4,_8),(_8,_2)):((_64,_1),(_8,_256))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x64_S32U4S4S32_TN_SATURATE | _32:_1           | (_16,_8,_64)  | ((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))   | ((_4,_8),(_8,_2)):((_64,_1),(_8,_256))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x32_S32U4U4S32_TN           | _32:_1           | (_8,_8,_32)   | ((_4,_8),(_8)):((_64,_1),(_8))                   | ((_4,_8),(_8)):((_64,_1),(_8))            | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x32_S32U4U4S32_TN_SATURATE  | _32:_1           | (_8,_8,_32)   | ((_4,_8),(_8)):((_64,_1),(_8))                   | ((_4,_8),(_8)):((_64,_1),(_8))            | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x32_S32U4U4S32_TN          | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_8,_2)):((_128,_1),(_16,_8))           | ((_4,_8),(_8)):((_32,_1),(_8))            | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x32_S32U4U4S32_TN_SATURATE | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_8,_2)):((_128,_1),(_16,_8))           | ((_4,_8),(_8)):((_32,_1),(_8))            | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x64_S32U4U4S32_TN          | _32:_1           | (_16,_8,_64)  | ((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))   | ((_4,_8),(_8,_2)):((_64,_1),(_8,_256))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x64_S32U4U4S32_TN_SATURATE | _32:_1           | (_16,_8,_64)  | ((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))   | ((_4,_8),(_8,_2)):((_64,_1),(_8,_256))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x256_S32U1U1S32_TN_XORPOPC | _32:_1           | (_16,_8,_256) | ((_4,_8),(_32,_2,_2)):((_512,_1),(_16,_8,_2048)) | ((_4,_8),(_32,_2)):((_256,_1),(_8,_1024)) | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x256_S32U1U1S32_TN_ANDPOPC | _32:_1           | (_16,_8,_256) | ((_4,_8),(_32,_2,_2)):((_512,_1),(_16,_8,_2048)) | ((_4,_8),(_32,_2)):((_256,_1),(_8,_1024)) | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_8x8x128_S32U1U1S32_TN_XORPOPC  | _32:_1           | (_8,_8,_128)  | ((_4,_8),_32):((_256,_1),_8)                     | ((_4,_8),_32):((_256,_1),_8)              | ((_4,_8),_2):((_16,_1),_8)
SM80_8x8x128_S32U1U1S32_TN_ANDPOPC  | _32:_1           | (_8,_8,_128)  | ((_4,_8),_32):((_256,_1),_8)                     | ((_4,_8),_32):((_256,_1),_8)              | ((_4,_8),_2):((_16,_1),_8)
SM80_16x8x128_S32U1U1S32_TN_XORPOPC | _32:_1           | (_16,_8,_128) | ((_4,_8),(_32,_2)):((_512,_1),((_16,_8)))        | ((_4,_8),_32):((_256,_1),_8)              | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM80_16x8x128_S32U1U1S32_TN_ANDPOPC | _32:_1           | (_16,_8,_128) | ((_4,_8),(_32,_2)):((_512,_1),((_16,_8)))        | ((_4,_8),_32):((_256,_1),_8)              | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM89_16x8x32_F32E4M3E4M3F32_TN      | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM89_16x8x32_F32E4M3E5M2F32_TN      | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM89_16x8x32_F32E5M2E5M2F32_TN      | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM89_16x8x32_F32E5M2E4M3F32_TN      | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM89_16x8x32_F16E4M3E4M3F16_TN      | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM89_16x8x32_F16E4M3E5M2F16_TN      | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM89_16x8x32_F16E5M2E5M2F16_TN      | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM89_16x8x32_F16E5M2E4M3F16_TN      | _32:_1           | (_16,_8,_32)  | ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))    | ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))    | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM90_16x8x4_F64F64F64F64_TN         | _32:_1           | (_16,_8,_4)   | ((_4,_8),_2):((_16,_1),_8)                       | ((_4,_8),_1):((_8,_1),_0)                 | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM90_16x8x8_F64F64F64F64_TN         | _32:_1           | (_16,_8,_8)   | ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))            | ((_4,_8),_2):((_8,_1),_32)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM90_16x8x16_F64F64F64F64_TN        | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_2,_4)):((_16,_1),(_8,_64))            | ((_4,_8),_4):((_8,_1),_32)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM90_16x8x4_C64C64C64C64_TN         | _32:_1           | (_16,_8,_4)   | ((_4,_8),_2):((_16,_1),_8)                       | ((_4,_8),_1):((_8,_1),_0)                 | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM90_16x8x8_C64C64C64C64_TN         | _32:_1           | (_16,_8,_8)   | ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))            | ((_4,_8),_2):((_8,_1),_32)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
SM90_16x8x16_C64C64C64C64_TN        | _32:_1           | (_16,_8,_16)  | ((_4,_8),(_2,_4)):((_16,_1),(_8,_64))            | ((_4,_8),_4):((_8,_1),_32)                | ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
";

/// The N of `SM90_64xNxK_...` that CuTe defines (without `CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED`).
const GMMA_N: &[i64] = &[8, 16, 32, 64, 96, 128, 192, 256];

/// How a GMMA operation takes template arguments.
#[derive(Clone, Copy, Debug, PartialEq)]
enum GmmaArgs {
    /// `<tnspA, tnspB>` (`K` or `MN` each), e.g. `SM90_64x64x16_F16F16F16_SS<K,K>`.
    Major,
    /// Only `ScaleIn` arguments with defaults (the `_TN` f32/tf32/fp8 operations): written bare.
    Scale,
    /// Not a template (the integer `_TN` operations).
    None,
}

/// One GMMA family: `SM90_64xNx{k}_{types}{suffix}` for every N in `GMMA_N`.
struct GmmaFamily {
    types: &'static [&'static str],
    k: i64,
    /// `_SS` / `_RS` variants and how they take template arguments.
    variants: &'static [(&'static str, GmmaArgs)],
    /// The register-sourced A layout (`GMMA::ALayout_64x{8,16,32}`).
    rs_a: &'static str,
}

const ALAYOUT_64X8: &str = "((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))";
const ALAYOUT_64X16: &str = "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))";
const ALAYOUT_64X32: &str = "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))";

const GMMA_FAMILIES: &[GmmaFamily] = &[
    GmmaFamily {
        types: &["F16F16F16", "F32F16F16", "F32BF16BF16"],
        k: 16,
        variants: &[("_SS", GmmaArgs::Major), ("_RS", GmmaArgs::Major)],
        rs_a: ALAYOUT_64X16,
    },
    GmmaFamily {
        types: &["F32TF32TF32"],
        k: 8,
        variants: &[("_SS_TN", GmmaArgs::Scale), ("_RS_TN", GmmaArgs::Scale)],
        rs_a: ALAYOUT_64X8,
    },
    GmmaFamily {
        types: &[
            "F16E4M3E4M3",
            "F16E4M3E5M2",
            "F16E5M2E4M3",
            "F16E5M2E5M2",
            "F32E4M3E4M3",
            "F32E4M3E5M2",
            "F32E5M2E4M3",
            "F32E5M2E5M2",
        ],
        k: 32,
        variants: &[("_SS_TN", GmmaArgs::Scale), ("_RS_TN", GmmaArgs::Scale)],
        rs_a: ALAYOUT_64X32,
    },
    GmmaFamily {
        types: &["S32S8S8", "S32S8U8", "S32U8S8", "S32U8U8"],
        k: 32,
        variants: &[
            ("_SS_TN", GmmaArgs::None),
            ("_RS_TN", GmmaArgs::None),
            ("_SS_TN_SATURATE", GmmaArgs::None),
            ("_RS_TN_SATURATE", GmmaArgs::None),
        ],
        rs_a: ALAYOUT_64X32,
    },
];

fn row_traits(name: &str, cols: &[&str]) -> R<MmaTraits> {
    Ok(MmaTraits {
        name: name.to_string(),
        thr_id: parse_layout(cols[0])?,
        shape_mnk: parse_tuple(cols[1])?,
        a: parse_layout(cols[2])?,
        b: parse_layout(cols[3])?,
        c: parse_layout(cols[4])?,
    })
}

fn no_member(name: &str) -> EvalError {
    EvalError::unknown(format!("'{name}' is not a member of 'cute' (no such MMA or copy operation)"))
}

fn not_template(name: &str) -> EvalError {
    EvalError::rule("not a template", format!("'{name}' takes no template arguments"))
}

/// The names of all MMA operations of the table (GMMA ones without template arguments), for
/// completion and the tests.
pub fn all_names() -> Vec<String> {
    let mut v: Vec<String> = MMA_ROWS
        .lines()
        .filter_map(|l| l.split('|').next())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    for f in GMMA_FAMILIES {
        for t in f.types {
            for (suffix, _) in f.variants {
                for n in GMMA_N {
                    v.push(format!("SM90_64x{n}x{}_{t}{suffix}", f.k));
                }
            }
        }
    }
    v
}

/// Parse `SM90_64x{N}x{K}_{rest}`.
fn split_gmma(name: &str) -> Option<(i64, i64, &str)> {
    let rest = name.strip_prefix("SM90_64x")?;
    let (n, rest) = rest.split_once('x')?;
    let (k, rest) = rest.split_once('_')?;
    Some((n.parse().ok()?, k.parse().ok()?, rest))
}

fn gmma(name: &str, targs: &[TArg]) -> Option<R<MmaTraits>> {
    let (n, k, rest) = split_gmma(name)?;
    for f in GMMA_FAMILIES {
        if f.k != k {
            continue;
        }
        for t in f.types {
            for (suffix, args) in f.variants {
                if rest.strip_prefix(t) != Some(*suffix) {
                    continue;
                }
                if !GMMA_N.contains(&n) {
                    return Some(Err(no_member(name)));
                }
                return Some(gmma_traits(name, n, k, suffix.starts_with("_RS"), *args, f.rs_a, targs));
            }
        }
    }
    None
}

fn gmma_traits(name: &str, n: i64, k: i64, rs: bool, args: GmmaArgs, rs_a: &str, targs: &[TArg]) -> R<MmaTraits> {
    let mut shown = name.to_string();
    match args {
        GmmaArgs::Major => {
            let majors: Vec<&str> = targs
                .iter()
                .map(|t| match t {
                    TArg::Name(m) if m == "K" || m == "MN" => Ok(m.as_str()),
                    other => Err(EvalError::type_err(format!(
                        "{name}: template argument `{other}` is not a GMMA major (K or MN)"
                    ))),
                })
                .collect::<R<_>>()?;
            if majors.len() != 2 {
                return Err(EvalError::arity(format!(
                    "{name} takes the majors of A and B as template arguments, e.g. {name}<K,K> (got {})",
                    majors.len()
                )));
            }
            if rs && majors[0] != "K" {
                return Err(EvalError::rule(
                    "Register source operand A must have K major layout.",
                    format!("{name}<{},{}>", majors[0], majors[1]),
                ));
            }
            shown = format!("{name}<{},{}>", majors[0], majors[1]);
        }
        GmmaArgs::Scale | GmmaArgs::None => {
            if !targs.is_empty() {
                return Err(not_template(name));
            }
        }
    }
    let c = parse_layout(&format!("((_4,_8,_4),(_2,_2,_{})):((_128,_1,_16),(_64,_8,_512))", n / 8))?;
    let a = if rs { parse_layout(rs_a)? } else { parse_layout(&format!("(_128,(_64,_{k})):(_0,(_1,_64))"))? };
    let b = parse_layout(&format!("(_128,(_{n},_{k})):(_0,(_1,_{n}))"))?;
    Ok(MmaTraits {
        name: shown,
        thr_id: parse_layout("_128:_1")?,
        shape_mnk: parse_tuple(&format!("(_64,_{n},_{k})"))?,
        a,
        b,
        c,
    })
}

fn universal_fma(targs: &[TArg]) -> R<MmaTraits> {
    if targs.is_empty() || targs.len() > 4 {
        return Err(EvalError::arity(
            "UniversalFMA takes 1 to 4 value types: UniversalFMA<D,A,B,C>, e.g. UniversalFMA<float,float,float,float>",
        ));
    }
    let mut names = Vec::new();
    for t in targs {
        match t {
            TArg::Name(n) if value_type_bits(n).is_some() => names.push(n.clone()),
            other => return Err(EvalError::type_err(format!("UniversalFMA: `{other}` is not a value type"))),
        }
    }
    Ok(MmaTraits {
        name: format!("UniversalFMA<{}>", names.join(",")),
        thr_id: parse_layout("_1:_0")?,
        shape_mnk: parse_tuple("(_1,_1,_1)")?,
        a: parse_layout("(_1,_1):(_0,_0)")?,
        b: parse_layout("(_1,_1):(_0,_0)")?,
        c: parse_layout("(_1,_1):(_0,_0)")?,
    })
}

/// Templated operations whose traits are another row's (`mma_traits_sm120.hpp`:
/// `MMA_Traits<SM120_16x8x32_TN<A,B,C>> : MMA_Traits<SM80_16x8x32_S32S8S8S32_TN>`), with the
/// type combinations the instruction exists for (`arch/mma_sm120.hpp`, in the notation's types).
const TEMPLATED_ROWS: &[(&str, &str, &[[&str; 3]])] = &[(
    "SM120_16x8x32_TN",
    "SM80_16x8x32_S32S8S8S32_TN",
    &[
        ["float_e4m3_t", "float_e4m3_t", "float"],
        ["float_e4m3_t", "float_e5m2_t", "float"],
        ["float_e5m2_t", "float_e4m3_t", "float"],
        ["float_e5m2_t", "float_e5m2_t", "float"],
        ["float_e4m3_t", "float_e4m3_t", "half_t"],
        ["float_e4m3_t", "float_e5m2_t", "half_t"],
        ["float_e5m2_t", "float_e4m3_t", "half_t"],
        ["float_e5m2_t", "float_e5m2_t", "half_t"],
    ],
)];

fn templated(name: &str, targs: &[TArg]) -> Option<R<MmaTraits>> {
    let (_, base, combos) = TEMPLATED_ROWS.iter().find(|r| r.0 == name)?;
    let names: Vec<String> = targs.iter().map(|t| t.to_string()).collect();
    if names.len() != 3 {
        return Some(Err(EvalError::arity(format!(
            "{name} takes the types of A, B and C, e.g. {name}<float_e4m3_t,float_e4m3_t,float>"
        ))));
    }
    if !combos.iter().any(|c| c.iter().zip(&names).all(|(a, b)| a == b)) {
        return Some(Err(EvalError::rule(
            format!("No MMA matches {name} for given data types."),
            format!("{name}<{}>", names.join(",")),
        )));
    }
    Some(lookup(base, &[])?.map(|mut t| {
        t.name = format!("{name}<{}>", names.join(","));
        t
    }))
}

/// The traits of MMA operation `name<targs>`: `None` if `name` is not an MMA operation of this
/// table, `Some(Err)` if it is but the template arguments are wrong.
pub fn lookup(name: &str, targs: &[TArg]) -> Option<R<MmaTraits>> {
    if name == "UniversalFMA" {
        return Some(universal_fma(targs));
    }
    if let Some(t) = templated(name, targs) {
        return Some(t);
    }
    if let Some(t) = row(name) {
        if !targs.is_empty() {
            return Some(Err(not_template(name)));
        }
        return Some(t.clone());
    }
    gmma(name, targs)
}

/// The traits of the `MMA_ROWS` row named `name`, read once: the rows sorted by name (the first
/// of equal names kept, as a walk of the table finds it), found by binary search.
fn row(name: &str) -> Option<&'static R<MmaTraits>> {
    static ROWS: std::sync::OnceLock<Vec<(&'static str, R<MmaTraits>)>> = std::sync::OnceLock::new();
    let rows = ROWS.get_or_init(|| {
        let mut v: Vec<(&'static str, R<MmaTraits>)> = Vec::new();
        for line in MMA_ROWS.lines() {
            let cols: Vec<&'static str> = line.split('|').map(|s| s.trim()).collect();
            if cols.len() == 6 {
                v.push((cols[0], row_traits(cols[0], &cols[1..])));
            }
        }
        // a stable sort keeps equal names in table order; the dedup keeps the first
        v.sort_by(|a, b| a.0.cmp(b.0));
        v.dedup_by(|later, first| later.0 == first.0);
        v
    });
    rows.binary_search_by(|r| r.0.cmp(name)).ok().map(|i| &rows[i].1)
}

/// An unknown `SM<digits>_...` name: CuTe's "is not a member" error.
pub fn unknown_op(name: &str) -> EvalError {
    no_member(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_reads() {
        for n in all_names() {
            let targs = if n.ends_with("_SS") || n.ends_with("_RS") {
                vec![TArg::Name("K".into()), TArg::Name("K".into())]
            } else {
                vec![]
            };
            assert!(lookup(&n, &targs).unwrap().is_ok(), "{n}");
        }
    }
}
