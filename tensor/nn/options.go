// This file defines Option, PyTorch's optional constructor arguments
// (stride=2, bias=False, eps=1e-6, ...) as Go functional options.

package nn

import (
	"fmt"
	"strings"
)

// An Option sets one of PyTorch's optional constructor arguments, as in
// nn.NewConv2d(64, 128, 3, nn.Stride(2), nn.Padding(1), nn.Bias(false)).
// A constructor given an option that its module does not have panics,
// naming the option and the ones it takes.
type Option struct {
	name  string
	apply func(*config)
}

// config holds every option's value; each constructor reads its own.
type config struct {
	stride, padding, groups int
	bias                    bool
	eps                     float64
}

// Stride sets a convolution's or pooling's stride (PyTorch stride=s).
func Stride(s int) Option {
	return Option{"Stride", func(c *config) { c.stride = s }}
}

// Padding sets the zero padding added on each side (PyTorch padding=p).
func Padding(p int) Option {
	return Option{"Padding", func(c *config) { c.padding = p }}
}

// Groups splits a convolution's channels into g groups (PyTorch
// groups=g); g equal to the input channels is a depthwise convolution.
func Groups(g int) Option {
	return Option{"Groups", func(c *config) { c.groups = g }}
}

// Bias says whether a layer has an additive bias (PyTorch bias=on).
func Bias(on bool) Option {
	return Option{"Bias", func(c *config) { c.bias = on }}
}

// Eps sets the value a normalization adds to the variance (PyTorch eps=e).
func Eps(e float64) Option {
	return Option{"Eps", func(c *config) { c.eps = e }}
}

// configure applies opts over defaults for the constructor named ctor,
// which takes only the options named in accepted.
func configure(ctor string, defaults config, opts []Option, accepted ...string) config {
	c := defaults
	for _, o := range opts {
		if o.apply == nil {
			panic(fmt.Sprintf("nn.%s: a zero Option; build options with nn.Stride, nn.Bias, ...", ctor))
		}
		ok := false
		for _, a := range accepted {
			ok = ok || a == o.name
		}
		if !ok {
			panic(fmt.Sprintf("nn.%s: option %s does not apply (it takes %s)", ctor, o.name, strings.Join(accepted, ", ")))
		}
		o.apply(&c)
	}
	return c
}
