//! The packed cube's operations in SSE registers (SSSE3's byte shuffle for composing),
//! through `safe_arch`'s safe wrappers of the intrinsics: compiled only when the build
//! targets a processor with SSSE3 (`.cargo/config.toml` builds for the host).

use super::PackedCube;
use safe_arch::*;

#[inline(always)]
fn splat(byte: u8) -> m128i {
    set_splat_i8_m128i(byte as i8)
}

#[inline(always)]
fn corners(cube: &PackedCube) -> m128i {
    m128i::from(cube.corners)
}

#[inline(always)]
fn edges(cube: &PackedCube) -> m128i {
    m128i::from(cube.edges)
}

/// `a` followed by `b`.
#[inline(always)]
pub fn then(a: &PackedCube, b: &PackedCube) -> PackedCube {
    let (bc, be) = (corners(b), edges(b));
    let low = splat(15);
    // Corners: the cubie from the slot `b` names, twists added mod 3 (a sum of 48 or
    // more, 3 twists, loses 48; below that, the subtraction wraps above the sum).
    let moved = shuffle_av_i8z_all_m128i(corners(a), bitand_m128i(bc, low));
    let sum = add_i8_m128i(moved, bitand_m128i(bc, splat(0x30)));
    let c = min_u8_m128i(sum, sub_i8_m128i(sum, splat(0x30)));
    // Edges: flips added mod 2.
    let moved = shuffle_av_i8z_all_m128i(edges(a), bitand_m128i(be, low));
    let e = bitxor_m128i(moved, bitand_m128i(be, splat(0x10)));
    PackedCube {
        corners: c.into(),
        edges: e.into(),
    }
}

/// Slots (bits) of the edge cubies numbered `from` or above.
#[inline(always)]
pub fn edges_at_least(cube: &PackedCube, from: u8) -> u32 {
    let cubies = bitand_m128i(edges(cube), splat(15));
    let at_least = cmp_gt_mask_i8_m128i(cubies, splat(from.wrapping_sub(1)));
    move_mask_i8_m128i(at_least) as u32 & 0xFFF
}

/// Slots (bits) of the edge cubies numbered below `below`.
#[inline(always)]
pub fn edges_below(cube: &PackedCube, below: u8) -> u32 {
    let cubies = bitand_m128i(edges(cube), splat(15));
    move_mask_i8_m128i(cmp_gt_mask_i8_m128i(splat(below), cubies)) as u32 & 0xFFF
}

/// Slots (bits) of the corner cubies numbered below `below`.
#[inline(always)]
pub fn corners_below(cube: &PackedCube, below: u8) -> u32 {
    let cubies = bitand_m128i(corners(cube), splat(15));
    move_mask_i8_m128i(cmp_gt_mask_i8_m128i(splat(below), cubies)) as u32 & 0xFF
}

/// Slots (bits) of the flipped edges: each byte's flip bit (bit 4) moved to its top
/// bit, where `movemask` reads it.
#[inline(always)]
pub fn flips(cube: &PackedCube) -> u32 {
    move_mask_i8_m128i(shl_imm_u16_m128i::<3>(edges(cube))) as u32 & 0xFFF
}

/// Twists of slots 0..7 in base 3, slot 0 most significant: the twists as bytes, pairs
/// weighted (3, 1) (t6 alone, t7 dropped), then the four sums weighted 243, 27, 3, 1.
#[inline(always)]
pub fn twist(cube: &PackedCube) -> u32 {
    let twists = bitand_m128i(shr_imm_u16_m128i::<4>(corners(cube)), splat(3));
    let pairs = mul_u8i8_add_horizontal_saturating_m128i(
        twists,
        m128i::from([3i8, 1, 3, 1, 3, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    );
    let halves = mul_i16_horizontal_add_m128i(pairs, m128i::from([243i16, 27, 3, 1, 0, 0, 0, 0]));
    let [a, b, _, _] = <[i32; 4]>::from(halves);
    (a + b) as u32
}

/// Edge cubies modulo 4, two bits per slot: packed by weighted sums of pairs (1, 4),
/// then of pairs of pairs (1, 16), one byte per four slots.
#[inline(always)]
pub fn edge_low_bits(cube: &PackedCube) -> u32 {
    let low = bitand_m128i(edges(cube), splat(3));
    let pairs = mul_u8i8_add_horizontal_saturating_m128i(
        low,
        m128i::from([1i8, 4, 1, 4, 1, 4, 1, 4, 1, 4, 1, 4, 1, 4, 1, 4]),
    );
    let quads = mul_i16_horizontal_add_m128i(pairs, m128i::from([1i16, 16, 1, 16, 1, 16, 1, 16]));
    let [a, b, c, _] = <[i32; 4]>::from(quads);
    (a | b << 8 | c << 16) as u32
}
