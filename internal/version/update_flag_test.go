package version

import "flag"

// update is accepted by every test binary of fxgen, so that
// go test ./... -update rewrites the golden files wherever they are.
var _ = flag.Bool("update", false, "rewrite golden files")
