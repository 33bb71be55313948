// This file defines ModuleList, a list of submodules named 0, 1, ...

package nn

// ModuleList holds submodules in a list, as torch.nn.ModuleList: a model
// field Blocks nn.ModuleList names its elements' parameters blocks.0.…,
// blocks.1.…, as PyTorch's state dicts do. It has no Forward of its own;
// the model calls its elements (for _, b := range m.Blocks { x =
// b.Forward(x) }), so it may also skip, repeat or reorder them.
type ModuleList []Module

// NewModuleList returns the list of modules.
func NewModuleList(modules ...Module) ModuleList { return append(ModuleList{}, modules...) }
