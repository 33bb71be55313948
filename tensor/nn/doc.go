// Package nn holds the standard modules (Linear, ReLU, Flatten, ...) with
// PyTorch's parameter names and initialisation, and Call for user modules.
//
// Standard modules are leaves when traced: each call is one call_module
// node whose target is the module's qualified name (fc1, layer1.0.conv1).
// A user module called with Call is traced through unless the tracer is
// told to keep it as a leaf.
package nn
