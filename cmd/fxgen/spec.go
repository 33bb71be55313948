// This file checks the dims of an -input spec before they reach the
// tracer: sizes and coefficients as the user wrote them, so that a spec
// the generated code could not honour (a zero or negative coefficient, an
// overflowing size) is refused up front, naming the flag.

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// checkDims checks the dims between the brackets of a dtype[dims] type as
// written: each is a size n ≥ 0, a symbol S, or c*S or c*n with a
// coefficient c ≥ 1; no size, and no product of the sizes and
// coefficients, may overflow an int.
func checkDims(typ string) error {
	open := strings.IndexByte(typ, '[')
	if open < 0 || !strings.HasSuffix(typ, "]") {
		return nil // ir.ParseType reports the form
	}
	body := strings.TrimSpace(typ[open+1 : len(typ)-1])
	if body == "" {
		return nil
	}
	product := 1
	for _, f := range strings.Split(body, ",") {
		f = strings.TrimSpace(f)
		factor := 1
		rest := f
		if c, r, ok := strings.Cut(f, "*"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(c))
			if err != nil {
				return fmt.Errorf("dim %q: the coefficient %q is not an integer that fits in an int", f, c)
			}
			if n <= 0 {
				return fmt.Errorf("dim %q: the coefficient must be at least 1", f)
			}
			factor, rest = n, strings.TrimSpace(r)
		}
		if strings.ContainsAny(rest, "*") {
			return fmt.Errorf("dim %q: want n, S or c*S", f)
		}
		if rest != "" && (rest[0] == '-' || rest[0] == '+' || rest[0] >= '0' && rest[0] <= '9') {
			n, err := strconv.Atoi(rest)
			switch {
			case err != nil:
				return fmt.Errorf("dim %q: %q is not a size that fits in an int", f, rest)
			case n < 0:
				return fmt.Errorf("dim %q is negative", f)
			case n == 0:
				factor = 0
			case factor > math.MaxInt/n:
				return fmt.Errorf("dim %q overflows an int", f)
			default:
				factor *= n
			}
		}
		if factor != 0 && product > math.MaxInt/factor {
			return fmt.Errorf("the sizes in [%s] multiply to more than an int holds", body)
		}
		product *= factor
	}
	return nil
}
