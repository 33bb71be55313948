// Package testutil holds helpers shared by fxgen's own tests: the checks
// every compiled zoo model runs (every kernel tier, concurrency,
// allocations), deterministic weights, benchmarks. What a user's tests
// need (random inputs, tolerant comparison, fixtures) is in the public
// package fxgentest.
package testutil

import (
	"errors"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/tensor"
)

// RandFloat32 is fxgentest.RandFloat32, for fxgen's own tests.
var RandFloat32 = fxgentest.RandFloat32

// RandInt64 is fxgentest.RandInt64, for fxgen's own tests.
var RandInt64 = fxgentest.RandInt64

// Close reports whether got and want have the same dtype and shape and
// their elements differ by at most tol·max(1, max|want|) (integers not at
// all); it returns fxgentest's report of the differences.
func Close(got, want *tensor.Tensor, tol float64) error {
	if r := fxgentest.Compare(got, want, fxgentest.Tolerance{Abs: tol, Scale: true}); !r.OK() {
		return errors.New(r.String())
	}
	return nil
}
