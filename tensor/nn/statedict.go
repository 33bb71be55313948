// This file defines state dicts: a model's parameters and buffers by
// qualified name, and loading them into a model in place.

package nn

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// StateDict returns the parameters and buffers of m (a pointer to a model
// struct) by qualified name, as PyTorch's Module.state_dict does. The
// tensors are m's own, not copies. Names come from NamedParameters.
func StateDict(m any) map[string]*tensor.Tensor {
	sd := map[string]*tensor.Tensor{}
	for _, p := range NamedParameters(m) {
		sd[p.Name] = p.Tensor
	}
	return sd
}

// A LoadOption relaxes LoadStateDict and LoadSafetensors, which are strict
// by default.
type LoadOption func(*loadConfig)

type loadConfig struct {
	allowMissing    bool
	allowUnexpected bool
}

// AllowMissing lets a load leave the model's tensors that the source does
// not name unchanged, like PyTorch's load_state_dict(strict=False).
func AllowMissing() LoadOption { return func(c *loadConfig) { c.allowMissing = true } }

// AllowUnexpected lets a load ignore the source's tensors whose names the
// model does not have, like PyTorch's load_state_dict(strict=False).
func AllowUnexpected() LoadOption { return func(c *loadConfig) { c.allowUnexpected = true } }

// LoadStateDict copies the tensors of sd into the parameters and buffers of
// m with the same qualified names. It checks everything before it copies
// anything: a model tensor sd does not name, a name of sd the model does
// not have (unless AllowMissing or AllowUnexpected), a shape or dtype
// mismatch, each is reported in the returned error by name and m is left
// unchanged.
//
// A BatchNorm's num_batches_tracked may be missing, as PyTorch's strict
// load allows (many exported checkpoints omit it; inference never reads
// it): it is set to 0, as PyTorch fills it in. Any other missing name is
// an error.
//
// The data is copied into the model's existing arrays, and each array
// written has its version advanced (runtime.Array.MarkChanged). A compiled
// model reads the parameters it uses as they are directly, so it sees the
// new values; what its constructor computed from parameters (packed
// weights, folded batch norms) it cannot recompute, so its Forward panics,
// saying to build it again, rather than mix old and new values.
//
// A tensor reached under two names in m (tied weights) has only its first
// name, as NamedParameters gives it. A module held only as a method value
// (Out: fc.Forward) is named after its field (out.weight) when its type is
// known (RegisterModule); one of an unknown type is an error, since its
// parameters could not be loaded.
func LoadStateDict(m any, sd map[string]*tensor.Tensor, opts ...LoadOption) error {
	var cfg loadConfig
	for _, o := range opts {
		o(&cfg)
	}
	w := walk(m)
	params, modules := w.params, w.modules
	var errs []error
	for _, f := range w.unknown {
		// Its parameters, if any, would be neither loaded nor reported.
		errs = append(errs, fmt.Errorf("nn: load: %s holds a method value of *%s, whose parameters nn cannot see: call nn.RegisterModule[*%s]() in an init function, or hold the module in a field", f.Name, f.GoPath, f.GoPath[strings.LastIndexByte(f.GoPath, '/')+1:]))
	}
	batchNorms := map[string]bool{}
	for _, sm := range modules {
		if _, ok := sm.Module.(*BatchNorm2d); ok {
			batchNorms[sm.Name] = true
		}
	}
	have := make(map[string]bool, len(params))
	type pair struct{ dst, src *runtime.Array }
	var copies []pair
	for _, p := range params {
		have[p.Name] = true
		src, ok := sd[p.Name]
		if !ok {
			if owner, ok := strings.CutSuffix(p.Name, ".num_batches_tracked"); ok && batchNorms[owner] {
				copies = append(copies, pair{p.Tensor.Array(), runtime.FromInt64([]int64{0})})
				continue
			}
			if !cfg.allowMissing {
				errs = append(errs, fmt.Errorf("nn: load: missing %s (%v%v in the model)", p.Name, p.Tensor.DType(), p.Tensor.Type().Shape))
			}
			continue
		}
		if src == nil {
			errs = append(errs, fmt.Errorf("nn: load: %s: nil tensor", p.Name))
			continue
		}
		if p.Tensor.Symbolic() != nil || src.Symbolic() != nil {
			errs = append(errs, fmt.Errorf("nn: load: %s: symbolic tensor", p.Name))
			continue
		}
		dst, s := p.Tensor.Array(), src.Array()
		if dst.DType != s.DType {
			errs = append(errs, fmt.Errorf("nn: load: %s: dtype %v in the source, %v in the model", p.Name, s.DType, dst.DType))
			continue
		}
		if !slices.Equal(dst.Shape, s.Shape) {
			errs = append(errs, fmt.Errorf("nn: load: %s: shape %v in the source, %v in the model", p.Name, s.Shape, dst.Shape))
			continue
		}
		copies = append(copies, pair{dst, s})
	}
	if !cfg.allowUnexpected {
		var extra []string
		for name := range sd {
			if !have[name] {
				extra = append(extra, name)
			}
		}
		sort.Strings(extra)
		for _, name := range extra {
			errs = append(errs, fmt.Errorf("nn: load: unexpected %s (not in the model)", name))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, c := range copies {
		switch c.dst.DType {
		case runtime.Float32:
			copy(c.dst.F32, c.src.F32)
		case runtime.Int64:
			copy(c.dst.I64, c.src.I64)
		case runtime.Bool:
			copy(c.dst.B, c.src.B)
		}
		c.dst.MarkChanged()
	}
	return nil
}
