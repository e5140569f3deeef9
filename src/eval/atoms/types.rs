//! Value types (`half_t`, `float`, `uint128_t`, ...) and their sizes in bits (`sizeof_bits`).
//! May import nothing from the algebra.

/// (name, bits) of every value type the notation accepts.
pub const VALUE_TYPES: &[(&str, i64)] = &[
    ("int8_t", 8),
    ("uint8_t", 8),
    ("int16_t", 16),
    ("uint16_t", 16),
    ("int32_t", 32),
    ("uint32_t", 32),
    ("int64_t", 64),
    ("uint64_t", 64),
    ("float", 32),
    ("double", 64),
    ("bool", 1), // cute::sizeof_bits<bool> is 1
    ("half_t", 16),
    ("bfloat16_t", 16),
    ("tfloat32_t", 32),
    ("float_e4m3_t", 8),
    ("float_e5m2_t", 8),
    ("int4b_t", 4),
    ("uint4b_t", 4),
    ("uint1b_t", 1),
    ("uint128_t", 128),
];

/// `sizeof_bits<T>` of a value type name.
pub fn value_type_bits(name: &str) -> Option<i64> {
    VALUE_TYPES.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}
