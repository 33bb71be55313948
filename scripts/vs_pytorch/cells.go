package main

import (
	"github.com/fxgen/fxgen/example_models/dlrm"
	"github.com/fxgen/fxgen/example_models/fxdoc"
	"github.com/fxgen/fxgen/example_models/lstm"
	"github.com/fxgen/fxgen/example_models/mlp"
	"github.com/fxgen/fxgen/example_models/resnet18"
	"github.com/fxgen/fxgen/example_models/resnet20"
	"github.com/fxgen/fxgen/example_models/transformer"
	"github.com/fxgen/fxgen/fxgentest"
)

// zooModel is one model of the zoo: its large batch and how to build its
// compiled Forward on random inputs of batch n.
type zooModel struct {
	name  string
	large int
	build func(n int) func()
}

// zoo lists the models in the order of the table. Inputs are random with
// fixed seeds; weights are each model's default initialisation (the time
// of a forward pass does not depend on their values).
var zoo = []zooModel{
	{"mlp", 256, func(n int) func() {
		c := mlp.NewMLPCompiled(mlp.NewMLP())
		x := fxgentest.RandFloat32(1, n, 784)
		return func() { c.Forward(x) }
	}},
	{"transformer", 8, func(n int) func() {
		c := transformer.NewTransformerCompiled(transformer.NewTransformer())
		tokens := fxgentest.RandInt64(1, transformer.Vocab, n, transformer.Seq)
		return func() { c.Forward(tokens) }
	}},
	{"lstm", 64, func(n int) func() {
		c := lstm.NewLSTMCompiled(lstm.NewLSTM())
		x := fxgentest.RandFloat32(1, n, lstm.Steps, 128)
		h0, c0 := fxgentest.RandFloat32(2, n, 256), fxgentest.RandFloat32(3, n, 256)
		return func() { c.Forward(x, h0, c0) }
	}},
	{"dlrm", 2048, func(n int) func() {
		c := dlrm.NewDLRMCompiled(dlrm.NewDLRM())
		dense := fxgentest.RandFloat32(1, n, 13)
		sparse := fxgentest.RandInt64(2, 1000, n, dlrm.Tables)
		return func() { c.Forward(dense, sparse) }
	}},
	{"fxdoc", 1024, func(n int) func() {
		c := fxdoc.NewFXDocCompiled(fxdoc.NewFXDoc())
		x := fxgentest.RandFloat32(1, n, 5, 4)
		return func() { c.Forward(x) }
	}},
	{"resnet20", 64, func(n int) func() {
		c := resnet20.NewResNet20Compiled(resnet20.NewResNet20())
		x := fxgentest.RandFloat32(1, n, 3, 32, 32)
		return func() { c.Forward(x) }
	}},
	{"resnet18", 8, func(n int) func() {
		c := resnet18.NewResNet18Compiled(resnet18.NewResNet18())
		x := fxgentest.RandFloat32(1, n, 3, 224, 224)
		return func() { c.Forward(x) }
	}},
}
