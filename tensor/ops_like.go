// This file holds ZerosLike and OnesLike, the two common fills of
// full_like.

package tensor

// ZerosLike returns zeros of x's dtype and shape, as torch.zeros_like;
// x's values are not read, and a symbolic batch size stays symbolic.
func ZerosLike(x *Tensor) *Tensor { return FullLike(x, 0) }

// OnesLike returns ones of x's dtype and shape, as torch.ones_like.
func OnesLike(x *Tensor) *Tensor { return FullLike(x, 1) }
