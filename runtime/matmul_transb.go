// This file holds MatmulTransB, the batched product with the right
// operand's last two dimensions swapped, which spares the transpose.

package runtime

// MatmulTransB sets out = a·bᵀ over the last two dimensions for arrays of
// rank ≥ 2 whose leading (batch) dimensions broadcast: a is [..., m, k], b
// is [..., n, k], out is [..., m, n]. It is Matmul(out, a, b') with b' the
// transpose of b's last two dimensions, without making b': the GEMM packs
// b's rows as columns.
//
//	out[..., i, j] = Σp a[..., i, p]·b[..., j, p]
func MatmulTransB(out, a, b *Array) { matmul("MatmulTransB", out, a, b, true) }
