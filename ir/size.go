// This file holds size values: the 0-d int64 nodes that read a dimension
// of a tensor (size) and integer arithmetic on them, whose static value is
// a Dim that shape inference reads.

package ir

// SizeValue returns the static value of a size node: size(x, dim) is the
// dim of x's type, and mul, floordiv, add and sub of size values and int
// literals combine them while the result is a constant multiple of one
// symbol. ok is false for any other node, or a value that is not such a
// multiple (N+1, N·N).
func SizeValue(n *Node) (Dim, bool) {
	if n == nil || len(n.Types) != 1 || n.Types[0].DType != Int64 || len(n.Types[0].Shape) != 0 {
		return Dim{}, false
	}
	if n.Op != CallFunction && n.Op != CallMethod {
		return Dim{}, false
	}
	switch n.Target {
	case "size":
		x, ok := n.args[0].(*Node)
		if !ok || len(x.Types) != 1 {
			return Dim{}, false
		}
		v, _ := n.Kwarg("dim")
		dim, _ := v.(int)
		shape := x.Types[0].Shape
		if dim < 0 {
			dim += len(shape)
		}
		if dim < 0 || dim >= len(shape) {
			return Dim{}, false
		}
		return shape[dim], true
	case "mul", "floordiv", "add", "sub":
		if len(n.args) != 2 {
			return Dim{}, false
		}
		a, ok1 := sizeArg(n.args[0])
		b, ok2 := sizeArg(n.args[1])
		if !ok1 || !ok2 {
			return Dim{}, false
		}
		return CombineSizes(n.Target, a, b)
	}
	return Dim{}, false
}

// sizeArg returns the static value of a size operand: an int literal or
// a size node.
func sizeArg(a Arg) (Dim, bool) {
	switch x := a.(type) {
	case int:
		return Const(x), true
	case *Node:
		return SizeValue(x)
	}
	return Dim{}, false
}

// CombineSizes returns a op b for op mul, floordiv, add or sub when the
// result is a constant multiple of at most one symbol.
func CombineSizes(op string, a, b Dim) (Dim, bool) {
	switch op {
	case "mul":
		return a.Mul(b)
	case "floordiv":
		if a.IsConst() && b.IsConst() && b.Coef != 0 {
			q := a.Coef / b.Coef
			if a.Coef%b.Coef != 0 && (a.Coef < 0) != (b.Coef < 0) {
				q--
			}
			return Const(q), true
		}
		return a.Div(b)
	case "add", "sub":
		if op == "sub" {
			b.Coef = -b.Coef
		}
		switch {
		case a.IsConst() && b.IsConst():
			return Const(a.Coef + b.Coef), true
		case a.Sym == b.Sym:
			if a.Coef+b.Coef == 0 {
				return Const(0), true
			}
			return Dim{Coef: a.Coef + b.Coef, Sym: a.Sym}, true
		case a.Coef == 0:
			return b, true
		case b.Coef == 0:
			return a, true
		}
	}
	return Dim{}, false
}
