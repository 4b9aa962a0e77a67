//go:build amd64 && !purego

#include "textflag.h"

// Register use: X0 the CBC-MAC chain, X1 the keystream block, X2 the
// counter block, X3 the data block, X5..X15 the 11 round keys; R8 the
// counter's low 64 bits in native order, R9 scratch, R10 the offset of
// the block in src and dst, CX the end offset.

#define LOAD_KEYS(xk) \
	MOVOU 0(xk), X5; \
	MOVOU 16(xk), X6; \
	MOVOU 32(xk), X7; \
	MOVOU 48(xk), X8; \
	MOVOU 64(xk), X9; \
	MOVOU 80(xk), X10; \
	MOVOU 96(xk), X11; \
	MOVOU 112(xk), X12; \
	MOVOU 128(xk), X13; \
	MOVOU 144(xk), X14; \
	MOVOU 160(xk), X15

// ENC1 encrypts one block.
#define ENC1(a) \
	PXOR X5, a; \
	AESENC X6, a; \
	AESENC X7, a; \
	AESENC X8, a; \
	AESENC X9, a; \
	AESENC X10, a; \
	AESENC X11, a; \
	AESENC X12, a; \
	AESENC X13, a; \
	AESENC X14, a; \
	AESENCLAST X15, a

// ENC2 encrypts two independent blocks, round by round, so that one fills
// the AES unit while the other's previous round completes.
#define ENC2(a, b) \
	PXOR X5, a; PXOR X5, b; \
	AESENC X6, a; AESENC X6, b; \
	AESENC X7, a; AESENC X7, b; \
	AESENC X8, a; AESENC X8, b; \
	AESENC X9, a; AESENC X9, b; \
	AESENC X10, a; AESENC X10, b; \
	AESENC X11, a; AESENC X11, b; \
	AESENC X12, a; AESENC X12, b; \
	AESENC X13, a; AESENC X13, b; \
	AESENC X14, a; AESENC X14, b; \
	AESENCLAST X15, a; AESENCLAST X15, b

// NEXT_CTR puts the current counter block in X1 and advances the count.
#define NEXT_CTR \
	MOVQ R8, R9; \
	BSWAPQ R9; \
	PINSRQ $1, R9, X2; \
	INCQ R8; \
	MOVOU X2, X1

// Common prologue of sealBlocks and openBlocks.
#define PROLOGUE \
	MOVQ xk+0(FP), AX; \
	MOVQ mac+8(FP), BX; \
	MOVQ ctr+16(FP), DX; \
	MOVQ dst+24(FP), DI; \
	MOVQ src+32(FP), SI; \
	MOVQ n+40(FP), CX; \
	SHLQ $4, CX; \
	XORQ R10, R10; \
	LOAD_KEYS(AX); \
	MOVOU (BX), X0; \
	MOVOU (DX), X2; \
	MOVQ 8(DX), R8; \
	BSWAPQ R8

// Common epilogue: the chain and the counter go back to memory.
#define EPILOGUE \
	MOVOU X0, (BX); \
	BSWAPQ R8; \
	MOVQ R8, 8(DX)

// func encryptBlockAsm(xk *schedule, dst, src *[blockSize]byte)
TEXT ·encryptBlockAsm(SB), NOSPLIT, $0-24
	MOVQ xk+0(FP), AX
	MOVQ dst+8(FP), DI
	MOVQ src+16(FP), SI
	LOAD_KEYS(AX)
	MOVOU (SI), X0
	ENC1(X0)
	MOVOU X0, (DI)
	RET

// func sealBlocks(xk *schedule, mac, ctr *[blockSize]byte, dst, src *byte, n int)
TEXT ·sealBlocks(SB), NOSPLIT, $0-48
	PROLOGUE
	TESTQ CX, CX
	JZ    sealDone

sealLoop:
	MOVOU (SI)(R10*1), X3
	PXOR  X3, X0
	NEXT_CTR
	ENC2(X0, X1)
	PXOR  X3, X1
	MOVOU X1, (DI)(R10*1)
	ADDQ  $16, R10
	CMPQ  R10, CX
	JB    sealLoop

sealDone:
	EPILOGUE
	RET

// func openBlocks(xk *schedule, mac, ctr *[blockSize]byte, dst, src *byte, n int)
//
// The plaintext of block i enters the chain while block i+1's keystream
// is computed: the first block's keystream runs alone, the last block's
// MAC step after the loop.
TEXT ·openBlocks(SB), NOSPLIT, $0-48
	PROLOGUE
	TESTQ CX, CX
	JZ    openDone
	NEXT_CTR
	ENC1(X1)
	JMP   openXOR

openLoop:
	NEXT_CTR
	ENC2(X0, X1)

openXOR:
	MOVOU (SI)(R10*1), X3
	PXOR  X1, X3
	MOVOU X3, (DI)(R10*1)
	PXOR  X3, X0
	ADDQ  $16, R10
	CMPQ  R10, CX
	JB    openLoop
	ENC1(X0)

openDone:
	EPILOGUE
	RET

// func startBlocks(xk *schedule, mac, s0, ctr *[blockSize]byte, aad *[2 * blockSize]byte, blocks int)
TEXT ·startBlocks(SB), NOSPLIT, $0-48
	MOVQ xk+0(FP), AX
	MOVQ mac+8(FP), BX
	MOVQ s0+16(FP), DI
	MOVQ ctr+24(FP), DX
	MOVQ aad+32(FP), SI
	MOVQ blocks+40(FP), CX
	LOAD_KEYS(AX)
	MOVOU (BX), X0
	MOVOU (DX), X1
	ENC2(X0, X1)
	MOVOU X1, (DI)
	TESTQ CX, CX
	JZ    startDone
	MOVOU (SI), X3
	PXOR  X3, X0
	ENC1(X0)
	CMPQ  CX, $1
	JE    startDone
	MOVOU 16(SI), X3
	PXOR  X3, X0
	ENC1(X0)

startDone:
	MOVOU X0, (BX)
	RET

// func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL subleaf+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET
