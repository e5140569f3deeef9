//! CuTe's functions, ported case by case from the C++ headers (`int_tuple.hpp`, `layout.hpp`,
//! `swizzle_layout.hpp`, ...), with CuTe's static/dynamic rules. Free of spans, terminals, GPUs.
//!
//! - `tuple`: IntTuple arithmetic and tests (size, product, ceil_div, shape_div, congruent, ...)
//! - `structure`: layout construction and structure (make_layout, get, select, flatten, filter, ...)
//! - `coord`: coordinates (crd2idx, idx2crd, evaluation, slicing, dice, domain_offset)
//! - `algebra`: coalesce, composition, complement, inverses, max_common_*, upcast/downcast, ...
//! - `divide`: logical/zipped/tiled/flat divide and the products, tile_to_shape
//! - `swizzle`: swizzles and composed (swizzled) layouts
pub mod algebra;
pub mod compare;
pub mod coord;
pub mod divide;
pub mod structure;
pub mod swizzle;
pub mod tuple;
