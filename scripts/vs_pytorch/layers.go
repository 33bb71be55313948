package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/fxgen/fxgen/internal/dwsep"
	fxruntime "github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// compiledBlocks are the depthwise-separable cells: each runs fxgen's
// compiled code (internal/dwsep), as a model built from such blocks would.
var compiledBlocks = map[string]func() forward{
	"dwsep:32/112/96/24/1":  func() forward { return dwsep.NewBlock112Compiled(dwsep.NewBlock112()).Forward },
	"dwsep:24/56/144/24/1":  func() forward { return dwsep.NewBlock56Compiled(dwsep.NewBlock56()).Forward },
	"dwsep:32/28/192/32/1":  func() forward { return dwsep.NewBlock28Compiled(dwsep.NewBlock28()).Forward },
	"dwsep:96/14/576/96/1":  func() forward { return dwsep.NewBlock14Compiled(dwsep.NewBlock14()).Forward },
	"dwsep:160/7/960/160/1": func() forward { return dwsep.NewBlock7Compiled(dwsep.NewBlock7()).Forward },
	"dwsep:16/112/96/24/2":  func() forward { return dwsep.NewBlock112S2Compiled(dwsep.NewBlock112S2()).Forward },
	"dwsep:24/56/144/32/2":  func() forward { return dwsep.NewBlock56S2Compiled(dwsep.NewBlock56S2()).Forward },
	"dwsep:32/28/192/64/2":  func() forward { return dwsep.NewBlock28S2Compiled(dwsep.NewBlock28S2()).Forward },
	"dwsep:96/14/576/160/2": func() forward { return dwsep.NewBlock14S2Compiled(dwsep.NewBlock14S2()).Forward },
}

// forward is a compiled Forward.
type forward = func(*tensor.Tensor) *tensor.Tensor

// convLayers are the convolution cells of -layers: the zoo's ResNet
// layers and depthwise-separable blocks (1×1 expand and ReLU, 3×3
// depthwise and ReLU, 1×1 project, as in MobileNetV2) at the resolutions
// of a 224² network, with stride 1 and, as MobileNetV2 enters each
// resolution, stride 2. Each runs the runtime's kernels directly on the Go
// side, with filters prepared as compiled models prepare them (the blocks
// the channels-last pass rewrites run their compiled code:
// compiledBlocks), and the same layers (torch.nn.Conv2d, ReLU) through
// optimize_for_inference on the PyTorch side, whose worker parses the
// name. Names: conv:C/H/O/K/S/P and dwsep:C/H/E/O/S.
var convLayers = []zooModel{
	{"conv:16/32/16/3/1/1", 64, nil},  // resnet20 stage 1
	{"conv:32/16/32/3/1/1", 64, nil},  // resnet20 stage 2
	{"conv:64/8/64/3/1/1", 64, nil},   // resnet20 stage 3
	{"conv:3/224/64/7/2/3", 8, nil},   // resnet18 stem
	{"conv:64/56/64/3/1/1", 8, nil},   // resnet18 layer1
	{"conv:128/28/128/3/1/1", 8, nil}, // resnet18 layer2
	{"conv:256/14/256/3/1/1", 8, nil}, // resnet18 layer3
	{"conv:512/7/512/3/1/1", 8, nil},  // resnet18 layer4
	{"conv:64/56/128/3/2/1", 8, nil},  // resnet18 downsampling 3×3
	{"conv:64/56/128/1/2/0", 8, nil},  // resnet18 1×1 downsample
	{"dwsep:32/112/96/24/1", 8, nil},  // depthwise-separable blocks
	{"dwsep:24/56/144/24/1", 8, nil},
	{"dwsep:32/28/192/32/1", 8, nil},
	{"dwsep:96/14/576/96/1", 8, nil},
	{"dwsep:160/7/960/160/1", 8, nil},
	{"dwsep:16/112/96/24/2", 8, nil}, // MobileNetV2's stride-2 blocks
	{"dwsep:24/56/144/32/2", 8, nil},
	{"dwsep:32/28/192/64/2", 8, nil},
	{"dwsep:96/14/576/160/2", 8, nil},
}

func init() {
	for i := range convLayers {
		name := convLayers[i].name
		convLayers[i].build = func(n int) func() { return buildLayer(name, n) }
	}
}

// buildLayer returns the Go side of a layer cell at batch n: random input
// and weights, preallocated outputs, the runtime's kernels.
func buildLayer(name string, n int) func() {
	r := rand.New(rand.NewPCG(1, 2))
	rnd := func(shape ...int) *fxruntime.Array {
		a := fxruntime.NewArray(fxruntime.Float32, shape...)
		for i := range a.F32 {
			a.F32[i] = r.Float32()*2 - 1
		}
		return a
	}
	var c, h, o, k, s, p, e int
	g := 1
	if _, err := fmt.Sscanf(name, "conv:%d/%d/%d/%d/%d/%d", &c, &h, &o, &k, &s, &p); err == nil {
		x, w, b := rnd(n, c, h, h), rnd(o, c/g, k, k), rnd(o)
		oh := (h+2*p-k)/s + 1
		out := fxruntime.NewArray(fxruntime.Float32, n, o, oh, oh)
		pw := fxruntime.PrepareConv2d(w, []int{s}, []int{p}, g) // as compiled models do
		return func() { fxruntime.Conv2dPrepared(out, x, pw, b, []int{s}, []int{p}, g) }
	}
	if _, err := fmt.Sscanf(name, "dwsep:%d/%d/%d/%d/%d", &c, &h, &e, &o, &s); err == nil {
		compile := compiledBlocks[name]
		if compile == nil {
			panic("vs_pytorch: no compiled block " + name + " in internal/dwsep")
		}
		run, x := compile(), tensor.FromArray(rnd(n, c, h, h))
		return func() { run(x) }
	}
	panic("vs_pytorch: bad layer name " + name)
}

// layerFLOPs returns the floating-point operations (2 per multiply-add)
// of a layer cell at batch n, or 0 for a model of the zoo.
func layerFLOPs(name string, n int) float64 {
	var c, h, o, k, s, p, e int
	if _, err := fmt.Sscanf(name, "conv:%d/%d/%d/%d/%d/%d", &c, &h, &o, &k, &s, &p); err == nil {
		oh := (h+2*p-k)/s + 1
		return 2 * float64(n*o*oh*oh*c*k*k)
	}
	if _, err := fmt.Sscanf(name, "dwsep:%d/%d/%d/%d/%d", &c, &h, &e, &o, &s); err == nil {
		oh := (h+2-3)/s + 1
		return 2 * float64(n) * (float64(e*h*h*c) + float64(e*oh*oh*9) + float64(o*oh*oh*e))
	}
	return 0
}
