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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::min_cost_pairs;

    /// The least total cost of any perfect matching of `left`, by trying every one.
    fn brute(left: &[usize], cost: &dyn Fn(usize, usize) -> i128) -> i128 {
        let Some((&a, rest)) = left.split_first() else {
            return 0;
        };
        rest.iter()
            .enumerate()
            .map(|(k, &b)| {
                let others: Vec<usize> = rest
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .map(|(_, &x)| x)
                    .collect();
                cost(a.min(b), a.max(b)) + brute(&others, cost)
            })
            .min()
            .unwrap_or(i128::MAX)
    }

    proptest! {
        /// On up to 10 vertices, with costs spread over the pairing's levels (some as large
        /// as a forbidden pair), the matching is perfect and as cheap as the cheapest found by
        /// brute force.
        #[test]
        fn matches_brute_force(
            half in 1usize..6,
            raw in proptest::collection::vec((0u32..6, 0u8..36), 45),
        ) {
            let n = 2 * half;
            let cost = |i: usize, j: usize| {
                let (mantissa, exp) = raw[(i * n + j) % raw.len()];
                i128::from(mantissa) * 10i128.pow(u32::from(exp))
            };
            let mate = min_cost_pairs(n, cost);
            for i in 0..n {
                prop_assert!(mate[i] != i && mate[mate[i]] == i, "not a perfect matching: {:?}", mate);
            }
            let total: i128 = (0..n).filter(|&i| i < mate[i]).map(|i| cost(i, mate[i])).sum();
            let all: Vec<usize> = (0..n).collect();
            prop_assert_eq!(total, brute(&all, &cost));
        }
    }
}
