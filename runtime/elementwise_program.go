// This file holds fused elementwise programs: a small list of elementwise
// steps over float32 arrays evaluated chunk by chunk, so that each input is
// read once and only the result is written to memory.

package runtime

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// ElementwiseOp is the operation of one step of an ElementwiseProgram.
type ElementwiseOp uint8

// The operations of an ElementwiseProgram. A step reads registers A and B
// (and its scalar C) and writes the next register; registers 0 to the
// number of inputs - 1 are the inputs, and each step's result is the
// register after the ones before it.
const (
	ElemAdd         ElementwiseOp = iota + 1 // A + B
	ElemSub                                  // A - B
	ElemMul                                  // A · B
	ElemDiv                                  // A / B
	ElemAddScalar                            // A + C
	ElemSubScalar                            // A - C
	ElemMulScalar                            // A · C
	ElemDivScalar                            // A / C
	ElemScalarSub                            // C - A
	ElemScalarDiv                            // C / A
	ElemRelu                                 // max(A, 0), NaN kept (Relu)
	ElemNeg                                  // -A
	ElemSigmoid                              // Sigmoid(A)
	ElemTanh                                 // Tanh(A)
	ElemGelu                                 // Gelu(A)
	ElemMaskedFill                           // B ? C : A, B a bool input (MaskedFill)
	ElemSilu                                 // Silu(A)
	ElemGeluTanh                             // GeluTanh(A)
	ElemExp                                  // Exp(A)
	ElemRelu6                                // Relu6(A)
	ElemHardswish                            // Hardswish(A)
	ElemHardsigmoid                          // Hardsigmoid(A)
	ElemAbs                                  // Abs(A)
	ElemSqrt                                 // Sqrt(A)
	ElemRsqrt                                // Rsqrt(A)
	ElemLog                                  // Log(A)
	elemOps
)

var elemNames = [elemOps]string{"", "add", "sub", "mul", "div", "add_scalar", "sub_scalar", "mul_scalar", "div_scalar",
	"scalar_sub", "scalar_div", "relu", "neg", "sigmoid", "tanh", "gelu", "masked_fill",
	"silu", "gelu_tanh", "exp", "relu6", "hardswish", "hardsigmoid", "abs", "sqrt", "rsqrt", "log"}

// String returns the operation's name.
func (op ElementwiseOp) String() string {
	if op > 0 && op < elemOps {
		return elemNames[op]
	}
	return fmt.Sprintf("ElementwiseOp(%d)", uint8(op))
}

// Operands returns how many registers op reads (a masked_fill its mask too).
func (op ElementwiseOp) Operands() int {
	switch op {
	case ElemAdd, ElemSub, ElemMul, ElemDiv, ElemMaskedFill:
		return 2
	}
	return 1
}

// ElementwiseStep is one step of an ElementwiseProgram.
type ElementwiseStep struct {
	Op   ElementwiseOp
	A, B int     // the registers read (B only by two-operand ops)
	C    float32 // the scalar of the scalar ops and of masked_fill
}

// The limits of an ElementwiseProgram.
const (
	MaxElementwiseInputs = 8
	MaxElementwiseSteps  = 16
)

// ElementwiseProgram is a checked list of elementwise steps over a fixed
// number of inputs; the last step's result is the program's. Steps compute
// each element exactly as the kernel of the same name (Add, Sigmoid,
// MaskedFill, ...) does, so a program gives the bits of the kernels called
// one after the other. It holds no per-call state: one program may run in
// many goroutines at once.
type ElementwiseProgram struct {
	inputs int
	steps  []ElementwiseStep
	bools  [MaxElementwiseInputs]bool // inputs read as a mask
	// maskedLast says that the last step is masked_fill(mask, -Inf) of
	// the step before's result (of input 0 when it is the only step) and
	// that no other step reads its mask; unmasked is then the program
	// without it (nil when it is the only step), over the same inputs.
	// Attention runs unmasked and a softmax over each query's kept keys
	// alone where every row of the mask cuts a run of last keys
	// (softmaxKeptRows).
	maskedLast bool
	unmasked   *ElementwiseProgram
}

// NewElementwiseProgram checks steps over the given number of inputs and
// returns them as a program. It panics if a step reads a register not yet
// written, a mask that is not an input, or if the limits
// (MaxElementwiseInputs, MaxElementwiseSteps) are exceeded.
func NewElementwiseProgram(inputs int, steps []ElementwiseStep) *ElementwiseProgram {
	p, err := newElementwiseProgram(inputs, steps)
	if err != nil {
		panic("runtime: NewElementwiseProgram: " + err.Error())
	}
	return p
}

func newElementwiseProgram(inputs int, steps []ElementwiseStep) (*ElementwiseProgram, error) {
	if inputs < 0 || inputs > MaxElementwiseInputs || len(steps) == 0 || len(steps) > MaxElementwiseSteps {
		return nil, fmt.Errorf("%d inputs and %d steps, want at most %d inputs and 1 to %d steps", inputs, len(steps), MaxElementwiseInputs, MaxElementwiseSteps)
	}
	p := &ElementwiseProgram{inputs: inputs, steps: append([]ElementwiseStep(nil), steps...)}
	for j, s := range steps {
		regs := inputs + j
		if s.Op == 0 || s.Op >= elemOps {
			return nil, fmt.Errorf("step %d: unknown operation %d", j, s.Op)
		}
		if s.A < 0 || s.A >= regs || s.Op.Operands() == 2 && (s.B < 0 || s.B >= regs) {
			return nil, fmt.Errorf("step %d (%v): registers %d, %d, want below %d", j, s.Op, s.A, s.B, regs)
		}
		if s.Op == ElemMaskedFill {
			if s.B >= inputs {
				return nil, fmt.Errorf("step %d: the mask is register %d, want an input", j, s.B)
			}
			p.bools[s.B] = true
		}
	}
	for j, s := range steps {
		if s.A < inputs && p.bools[s.A] || s.Op.Operands() == 2 && s.Op != ElemMaskedFill && s.B < inputs && p.bools[s.B] {
			return nil, fmt.Errorf("step %d (%v) reads a mask as a number", j, s.Op)
		}
	}
	if maskedLastStep(inputs, steps) {
		p.maskedLast = true
		if len(steps) > 1 {
			// Its steps were checked above; the mask is an input none reads.
			p.unmasked, _ = newElementwiseProgram(inputs, steps[:len(steps)-1])
		}
	}
	return p, nil
}

// maskedLastStep reports whether the last of steps (over inputs inputs)
// is masked_fill(mask, -Inf) of the result of the step before it (of
// input 0 when it is the only step), with a mask no other step reads.
func maskedLastStep(inputs int, steps []ElementwiseStep) bool {
	n := len(steps)
	last, value := steps[n-1], 0
	if n > 1 {
		value = inputs + n - 2
	}
	if last.Op != ElemMaskedFill || !math.IsInf(float64(last.C), -1) || last.A != value {
		return false
	}
	for _, s := range steps[:n-1] {
		if s.A == last.B || s.Op.Operands() == 2 && s.B == last.B {
			return false
		}
	}
	return true
}

// DecodeElementwiseProgram returns the program of code, four ints a step
// (operation, A, B, and the float32 bits of C), over the given number of
// inputs; it is the form the fused_elementwise graph op stores.
func DecodeElementwiseProgram(inputs int, code []int) (*ElementwiseProgram, error) {
	if len(code)%4 != 0 {
		return nil, fmt.Errorf("program of %d ints, want 4 per step", len(code))
	}
	// The bits of C are a uint32 in an int, which on 32-bit platforms
	// holds those of 2^31 and up as negative numbers.
	minBits := int64(0)
	if bits.UintSize == 32 {
		minBits = math.MinInt32
	}
	steps := make([]ElementwiseStep, len(code)/4)
	for j := range steps {
		c := code[4*j : 4*j+4]
		if c[0] <= 0 || c[0] >= int(elemOps) || int64(c[3]) < minBits || int64(c[3]) > math.MaxUint32 {
			return nil, fmt.Errorf("step %d: bad operation %d or scalar bits %d", j, c[0], c[3])
		}
		steps[j] = ElementwiseStep{Op: ElementwiseOp(c[0]), A: c[1], B: c[2], C: math.Float32frombits(uint32(c[3]))}
	}
	return newElementwiseProgram(inputs, steps)
}

// FusedElementwise runs the program code (see DecodeElementwiseProgram)
// over inputs into out, followed by a softmax over the last dimension when
// softmax is set; it is the fused_elementwise op's kernel. Compiled code
// decodes the program once and calls ElementwiseProgram.Run or RunSoftmax.
func FusedElementwise(out *Array, inputs []*Array, code []int, softmax bool) {
	p, err := DecodeElementwiseProgram(len(inputs), code)
	if err != nil {
		kernelPanic("FusedElementwise", "%v", err)
	}
	RunElementwiseProgram(out, inputs, p, softmax)
}

// RunElementwiseProgram runs p over inputs into out: p.RunSoftmax when
// softmax, else p.Run. It is FusedElementwise with the program decoded
// ahead, which compiled code's constructor does once.
func RunElementwiseProgram(out *Array, inputs []*Array, p *ElementwiseProgram, softmax bool) {
	if softmax {
		p.RunSoftmax(out, inputs)
		return
	}
	p.Run(out, inputs)
}

// Steps returns a copy of the program's steps.
func (p *ElementwiseProgram) Steps() []ElementwiseStep {
	return append([]ElementwiseStep(nil), p.steps...)
}

// The layouts of an input relative to the output.
const (
	inFull   = iota // as many elements as out: read in place
	inScalar        // one element, repeated
	inRepeat        // broadcast along one run of dims and the leading ones (see repeatLayout)
)

// elemInput is one input of a run: its elements and its layout.
type elemInput struct {
	f32    []float32
	b      []bool
	layout int
	rep    repeat // inRepeat's
}

// repeat describes an input x broadcast to out along one run of dims and
// along out's leading dims: out is [lead..., outer..., rep..., inner...]
// and x [outer..., 1..., inner...], so that element i of out is
// x[((i / (rep·inner)) % outer)·inner + i % inner]. A suffix of out's
// shape has rep 1; a per-sample padding mask [N, 1, 1, S] against
// [N, H, L, S] has outer N, rep H·L and inner S; a per-channel scale
// [C, 1, 1] against [N, C, H, W] outer C, rep H·W and inner 1.
type repeat struct{ outer, rep, inner int }

// ElementwiseInputFits reports whether ElementwiseProgram.Run reads an
// input of shape in for a result of shape out: the same number of
// elements in a shape that broadcasts to out's, one element, or a repeat
// (see repeatLayout). Negative dims stand for unknown ones, equal only to
// themselves (the fuse-elementwise pass's symbolic dims).
func ElementwiseInputFits(in, out []int) bool {
	if !slices.ContainsFunc(in, func(d int) bool { return d < 0 }) && NumElements(in) == 1 {
		return true
	}
	_, ok := repeatLayout(in, out)
	return ok
}

// repeatLayout returns how x (shape in) broadcasts to out as a repeat, or
// false when it does not (a second run of broadcast dims, or a dim that is
// neither out's nor 1).
func repeatLayout(in, out []int) (repeat, bool) {
	for len(in) > 0 && in[0] == 1 {
		in = in[1:]
	}
	if len(in) > len(out) {
		return repeat{}, false
	}
	out = out[len(out)-len(in):]
	r := repeat{1, 1, 1}
	part := 0 // 0: inner dims, 1: broadcast dims, 2: outer dims
	for i := len(in) - 1; i >= 0; i-- {
		switch {
		case out[i] == 1 && in[i] == 1:
			// Neither repeats nor moves: anywhere in the run.
		case in[i] == out[i]:
			if part == 1 {
				part = 2
			}
			if part == 0 {
				r.inner *= in[i]
			} else {
				r.outer *= in[i]
			}
		case in[i] == 1 && part < 2:
			part = 1
			r.rep *= out[i]
		default:
			return repeat{}, false
		}
	}
	return r, true
}

// repeated returns x's elements for positions [a, a+len(buf)) of the
// array that r repeats x into: a slice of x when they lie in one run of
// it, else gathered into buf.
func repeated[T float32 | bool](buf, x []T, a int, r repeat) []T {
	block := r.rep * r.inner
	o, w := a/block%r.outer, a%block
	j := w % r.inner
	if j+len(buf) <= r.inner {
		return x[o*r.inner+j : o*r.inner+j+len(buf)]
	}
	for i := 0; i < len(buf); {
		row := x[o*r.inner : (o+1)*r.inner]
		if r.inner == 1 {
			// A run of one value: fill it.
			c := min(len(buf)-i, block-w)
			v := row[0]
			for k := range buf[i : i+c] {
				buf[i+k] = v
			}
			i += c
			w += c
		} else {
			c := copy(buf[i:], row[j:])
			i += c
			w += c
			j = 0
		}
		if w == block {
			w = 0
			if o++; o == r.outer {
				o = 0
			}
		}
	}
	return buf
}

// elemJob is one Run or RunSoftmax call.
type elemJob struct {
	p   *ElementwiseProgram
	out []float32
	in  [MaxElementwiseInputs]elemInput
	// row is the length of the rows RunSoftmax normalizes (0 for Run);
	// grain is the number of elements of a block, whole rows for
	// RunSoftmax.
	row, grain int
}

// elemChunk is the number of elements a step computes at a time: the
// registers of a chunk stay in the first-level cache.
const elemChunk = 1024

var elemTasks = taskPool(func(j *elemJob, lo, hi int) {
	j.blocks(lo, hi)
})

// elemScratch holds a worker's registers for one chunk.
type elemScratch struct {
	regs [MaxElementwiseInputs + MaxElementwiseSteps][elemChunk]float32
	mask [MaxElementwiseInputs][elemChunk]bool
}

var elemScratches = sync.Pool{New: func() any { return new(elemScratch) }}

// Run sets out to the program's result over inputs. Every input must be a
// float32 array (a bool array where a masked_fill step reads it as its
// mask) with as many elements as out, one element, or a shape that
// broadcasts to out's along one run of dims and the leading ones (leading
// 1s ignored): a suffix of out's shape, [N, 1, 1, S] against [N, H, L, S],
// [C, 1, 1] against [N, C, H, W] (see repeat). out
// must not share memory with an input. The work is split over the worker
// pool; the result is the same for any number of workers.
func (p *ElementwiseProgram) Run(out *Array, inputs []*Array) {
	p.run("ElementwiseProgram.Run", out, inputs, 0)
}

// RunSoftmax sets out to the softmax over the last dimension (Softmax with
// dim -1) of the program's result over inputs, a block of rows at a time:
// each row is normalized while it is in cache, and the result before the
// softmax is never stored. Inputs are as for Run; the bits are those of
// Run followed by Softmax.
func (p *ElementwiseProgram) RunSoftmax(out *Array, inputs []*Array) {
	if len(out.Shape) == 0 {
		kernelPanic("ElementwiseProgram.RunSoftmax", "out is a scalar, want rows")
	}
	row := out.Shape[len(out.Shape)-1]
	if row == 0 {
		return
	}
	p.run("ElementwiseProgram.RunSoftmax", out, inputs, row)
}

// elementwiseParallelMin is the fewest elements an elementwise program
// splits over the worker pool (a variable for tests): a smaller one takes
// a few microseconds on one core, less than the pool's hand-off (see
// convParallelFlops).
var elementwiseParallelMin = 1 << 16

// runSerial is run on the calling goroutine alone.
func (p *ElementwiseProgram) runSerial(name string, out *Array, inputs []*Array, row int) {
	p.runOn(name, out, inputs, row, true)
}

// run is Run, with a softmax over rows of row elements when row > 0.
func (p *ElementwiseProgram) run(name string, out *Array, inputs []*Array, row int) {
	p.runOn(name, out, inputs, row, false)
}

// inputDType is the dtype the program reads input i as: Bool for a mask,
// else Float32.
func (p *ElementwiseProgram) inputDType(i int) DType {
	if p.bools[i] {
		return Bool
	}
	return Float32
}

// runOn is run, on the calling goroutine alone when serial.
func (p *ElementwiseProgram) runOn(name string, out *Array, inputs []*Array, row int, serial bool) {
	checkDType(name, "out", out, Float32)
	if len(inputs) != p.inputs {
		kernelPanic(name, "%d inputs, want %d", len(inputs), p.inputs)
	}
	j := elemJob{p: p, out: out.F32, row: row, grain: elementwiseGrain}
	if row > 0 {
		j.grain = max(1, elementwiseGrain/row) * row
	}
	n := out.Len()
	for i, x := range inputs {
		checkDType(name, "input", x, p.inputDType(i))
		in := elemInput{f32: x.F32, b: x.B}
		switch {
		case x.Len() == n && maskFits(x.Shape, out.Shape):
			in.layout = inFull
		case x.Len() == 1:
			in.layout = inScalar
		default:
			r, ok := repeatLayout(x.Shape, out.Shape)
			if !ok {
				kernelPanic(name, "input %d: shape %v does not broadcast to out %v as a whole, a scalar or along one run of dims", i, x.Shape, out.Shape)
			}
			in.layout, in.rep = inRepeat, r
		}
		j.in[i] = in
	}
	if n == 0 {
		return
	}
	blocks := (n + j.grain - 1) / j.grain
	if n < elementwiseParallelMin || serial {
		j.blocks(0, blocks)
		return
	}
	runPooled(elemTasks, blocks, j)
}

// blocks computes the elements of blocks [lo, hi) of j.grain, and their
// rows' softmax when j.row > 0.
func (j *elemJob) blocks(lo, hi int) {
	s := elemScratches.Get().(*elemScratch)
	start, end := lo*j.grain, min(hi*j.grain, len(j.out))
	for a := start; a < end; a += elemChunk {
		j.chunk(s, a, min(a+elemChunk, end))
	}
	elemScratches.Put(s)
	if j.row > 0 {
		softmaxRows(j.out, j.out, j.row, start/j.row, end/j.row, false)
	}
}

// reg is a register's value over a chunk: a slice, or a scalar.
type reg struct {
	v        []float32
	scalar   bool
	s        float32
	m        []bool
	mScalar  bool
	mScalarV bool
}

// chunk computes out[a:b].
func (j *elemJob) chunk(s *elemScratch, a, b int) {
	p := j.p
	n := b - a
	var regs [MaxElementwiseInputs + MaxElementwiseSteps]reg
	for i := 0; i < p.inputs; i++ {
		in := &j.in[i]
		r := &regs[i]
		if p.bools[i] {
			switch in.layout {
			case inFull:
				r.m = in.b[a:b]
			case inScalar:
				r.mScalar, r.mScalarV = true, in.b[0]
			default:
				r.m = repeated(s.mask[i][:n], in.b, a, in.rep)
			}
			continue
		}
		switch in.layout {
		case inFull:
			r.v = in.f32[a:b]
		case inScalar:
			r.scalar, r.s = true, in.f32[0]
		default:
			r.v = repeated(s.regs[i][:n], in.f32, a, in.rep)
		}
	}
	for k, st := range p.steps {
		d := p.inputs + k
		dst := s.regs[d][:n]
		if k == len(p.steps)-1 {
			dst = j.out[a:b]
		}
		regs[d] = reg{v: dst}
		elemStep(st, dst, &regs[st.A], &regs[st.B], s.regs[d][:n])
	}
}

// vec returns r's values over the chunk: its slice, or its scalar
// repeated into tmp.
func (r *reg) vec(tmp []float32) []float32 {
	if !r.scalar {
		return r.v
	}
	for i := range tmp {
		tmp[i] = r.s
	}
	return tmp
}

// binaryOps maps the two-register operations to the binary kernels' ops.
var binaryOps = [elemOps]binaryOp{ElemAdd: opAdd, ElemSub: opSub, ElemMul: opMul, ElemDiv: opDiv,
	ElemAddScalar: opAdd, ElemSubScalar: opSub, ElemMulScalar: opMul, ElemDivScalar: opDiv}

// elemStep computes one step into dst; tmp is scratch of dst's length that
// dst may be (it is when dst is not out).
func elemStep(st ElementwiseStep, dst []float32, x, y *reg, tmp []float32) {
	switch st.Op {
	case ElemAdd, ElemSub, ElemMul, ElemDiv:
		op := binaryOps[st.Op]
		switch {
		case !x.scalar && !y.scalar:
			binarySameF32(op, dst, x.v, y.v)
		case !x.scalar:
			binaryScalarF32(op, dst, x.v, y.s)
		case (op == opAdd || op == opMul) && !y.scalar:
			// Add and Mul commute exactly in IEEE arithmetic.
			binaryScalarF32(op, dst, y.v, x.s)
		case !y.scalar:
			// tmp may be dst: the kernels allow out to be an operand.
			binarySameF32(op, dst, x.vec(tmp), y.v)
		default:
			binaryScalarF32(op, dst, x.vec(tmp), y.s)
		}
	case ElemAddScalar, ElemSubScalar, ElemMulScalar, ElemDivScalar:
		binaryScalarF32(binaryOps[st.Op], dst, x.vec(tmp), st.C)
	case ElemScalarSub:
		xv := x.vec(tmp)
		for i, v := range xv[:len(dst)] {
			dst[i] = st.C - v
		}
	case ElemScalarDiv:
		xv := x.vec(tmp)
		for i, v := range xv[:len(dst)] {
			dst[i] = st.C / v
		}
	case ElemRelu:
		reluF32(dst, x.vec(tmp))
	case ElemNeg:
		xv := x.vec(tmp)
		for i, v := range xv[:len(dst)] {
			dst[i] = -v
		}
	case ElemSigmoid:
		activationF32(taskSigmoid, dst, x.vec(tmp))
	case ElemTanh:
		activationF32(taskTanh, dst, x.vec(tmp))
	case ElemGelu:
		activationF32(taskGelu, dst, x.vec(tmp))
	case ElemSilu:
		activationF32(taskSilu, dst, x.vec(tmp))
	case ElemGeluTanh:
		activationF32(taskGeluTanh, dst, x.vec(tmp))
	case ElemExp:
		activationF32(taskExp, dst, x.vec(tmp))
	case ElemRelu6:
		clampSlice(dst, x.vec(tmp), 0, 6)
	case ElemHardswish:
		unarySlice(unaryHardswish, dst, x.vec(tmp))
	case ElemHardsigmoid:
		unarySlice(unaryHardsigmoid, dst, x.vec(tmp))
	case ElemAbs:
		unarySlice(unaryAbs, dst, x.vec(tmp))
	case ElemSqrt:
		unarySlice(unarySqrt, dst, x.vec(tmp))
	case ElemRsqrt:
		mapSlice(dst, x.vec(tmp), rsqrtF32)
	case ElemLog:
		mapSlice(dst, x.vec(tmp), logF32)
	case ElemMaskedFill:
		xv := x.vec(tmp)
		if &xv[0] != &dst[0] {
			copy(dst, xv)
		}
		if y.mScalar {
			if y.mScalarV {
				for i := range dst {
					dst[i] = st.C
				}
			}
			return
		}
		fillWhereF32(dst, y.m[:len(dst)], st.C)
	}
}
