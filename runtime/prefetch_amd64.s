// Software prefetch of a range of memory into L2.

//go:build amd64 && !noasm

#include "textflag.h"

// func prefetchL2(p *float32, lines int)
//
// Asks for the lines 64-byte lines from p to be brought into L2; it reads
// nothing and never faults.
TEXT ·prefetchL2(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ lines+8(FP), CX
	TESTQ CX, CX
	JLE  done

loop:
	PREFETCHT1 (AX)
	ADDQ       $64, AX
	DECQ       CX
	JNZ        loop

done:
	RET
