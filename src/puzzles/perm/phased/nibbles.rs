//! The matching tables' two hot operations on a permutation packed 4 bits a value (place
//! `j`'s value in bits `4j..4j+4`), in SSE registers: compiled only when the build
//! targets a processor with SSE4.1 (`.cargo/config.toml` builds for the host), else the
//! place-by-place loops of [`super::matching`] serve.
//!
//! Both spread the sixteen nibbles over the sixteen bytes of a register first. Composing
//! with a move is then two byte shuffles. A Lehmer rank needs, at each place `i`, the
//! count of later places holding a smaller value: comparing the register with itself
//! shifted by `k` bytes answers "is the value `k` places on smaller?" for every place at
//! once, so `n - 1` shifts give every count, which four multiplies weigh by the
//! factorials. The loops take a step per place, each waiting for the one before.

use safe_arch::*;

/// Most values [`rank`] takes: every weighted count then fits 32 bits (`12! < 2^32`).
pub const RANK_MAX: usize = 12;

#[inline(always)]
fn splat(byte: u8) -> m128i {
    set_splat_i8_m128i(byte as i8)
}

/// Place `j`'s nibble in byte `j`.
#[inline(always)]
fn spread(t: u64) -> m128i {
    let word = set_i64_m128i_s(t as i64);
    let low = splat(0x0F);
    let even = bitand_m128i(word, low);
    let odd = bitand_m128i(shr_imm_u16_m128i::<4>(word), low);
    unpack_low_i8_m128i(even, odd)
}

/// Byte `j` (each below 16) back into nibble `j`.
#[inline(always)]
fn gather(bytes: m128i) -> u64 {
    let weights = m128i::from([1i8, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 16]);
    let pairs = mul_u8i8_add_horizontal_saturating_m128i(bytes, weights);
    get_i64_from_m128i_s(pack_i16_to_u8_m128i(pairs, pairs)) as u64
}

/// Bytes `0..n` all ones, the rest zero.
#[inline(always)]
fn first(n: usize) -> m128i {
    let places = m128i::from([0i8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    cmp_gt_mask_i8_m128i(set_splat_i8_m128i(n as i8), places)
}

/// `b_inverse ∘ t ∘ a` for a packed `t` of `n` values (`a` and `b_inverse` as bytes,
/// entries `0..n` used): nibble `j` of the result is `b_inverse[t(a[j])]`, nibbles from
/// `n` on zero.
#[inline(always)]
pub fn compose(t: u64, a: &[u8; 16], b_inverse: &[u8; 16], n: usize) -> u64 {
    let moved = shuffle_av_i8z_all_m128i(spread(t), m128i::from(*a));
    let next = shuffle_av_i8z_all_m128i(m128i::from(*b_inverse), moved);
    gather(bitand_m128i(next, first(n)))
}

/// Per `n`, place `i`'s weight in a rank: `(n - 1 - i)!`, zero from place `n` on.
const WEIGHTS: [[i32; RANK_MAX]; RANK_MAX + 1] = {
    let mut all = [[0i32; RANK_MAX]; RANK_MAX + 1];
    let mut n = 1;
    while n <= RANK_MAX {
        let mut factorial = 1i32;
        let mut i = n;
        while i > 0 {
            i -= 1;
            all[n][i] = factorial;
            factorial *= (n - i) as i32;
        }
        n += 1;
    }
    all
};

/// Shifts `$bytes` down by each of `$k` bytes while `$n` is larger, counting in
/// `$counts` each place whose value is exceeded `$k` places on.
macro_rules! count_exceeding {
    ($counts:ident, $flipped:ident, $n:ident, $($k:literal)*) => {
        $(
            if $n > $k {
                let later = byte_shr_imm_u128_m128i::<$k>($flipped);
                $counts = sub_i8_m128i($counts, cmp_gt_mask_i8_m128i(later, $flipped));
            }
        )*
    };
}

/// The Lehmer rank of a packed permutation of `0..n`, `n` at most [`RANK_MAX`].
#[inline(always)]
pub fn rank(t: u64, n: usize) -> u64 {
    debug_assert!(n <= RANK_MAX);
    // Values flipped (15 - v), zero from place n on: "a later value is smaller" becomes
    // "a later flipped value is larger", and the zeros shifted in or padding are never
    // larger than any flipped value.
    let flipped = bitand_m128i(sub_i8_m128i(splat(15), spread(t)), first(n));
    let mut counts = zeroed_m128i();
    count_exceeding!(counts, flipped, n, 1 2 3 4 5 6 7 8 9 10 11);
    let weights = &WEIGHTS[n];
    let weighed = |bytes: m128i, from: usize| {
        let w = m128i::from([
            weights[from],
            weights[from + 1],
            weights[from + 2],
            weights[from + 3],
        ]);
        mul_32_m128i(convert_to_u32_m128i_from_lower4_u8_m128i(bytes), w)
    };
    let sum = add_i32_m128i(
        add_i32_m128i(
            weighed(counts, 0),
            weighed(byte_shr_imm_u128_m128i::<4>(counts), 4),
        ),
        weighed(byte_shr_imm_u128_m128i::<8>(counts), 8),
    );
    let halves = add_i32_m128i(sum, shuffle_ai_f32_all_m128i::<0b01_00_11_10>(sum));
    let total = add_i32_m128i(halves, shuffle_ai_f32_all_m128i::<0b10_11_00_01>(halves));
    u64::from(get_i32_from_m128i_s(total) as u32)
}
