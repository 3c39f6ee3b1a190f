//! Minimum-cost perfect matching on a complete graph, the core of Swiss, McMahon and
//! double-knockout pairing.
//!
//! Pairing a round is a matching problem on a general graph (anyone may meet anyone), so a
//! bipartite assignment does not apply; the blossom algorithm (Edmonds, in Galil's O(n³)
//! primal–dual form) solves it. It comes from the `integer-blossom` crate, which is checked
//! against brute force by its authors and, for our costs, by this crate's property tests.

/// A perfect matching of `n` vertices (`n` even) of least total cost: `mate[i]` is the
/// partner of `i`. `cost(i, j)` is read for `i < j` and must not be negative.
pub(crate) fn min_cost_pairs(n: usize, cost: impl Fn(usize, usize) -> i128) -> Vec<usize> {
    debug_assert!(n.is_multiple_of(2));
    let mut matrix = vec![0i128; n * n];
    for i in 0..n {
        for j in i + 1..n {
            matrix[i * n + j] = cost(i, j).max(0);
        }
    }
    integer_blossom::min_weight_perfect_matching(&matrix, n)
}
