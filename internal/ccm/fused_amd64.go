//go:build amd64 && !purego

package ccm

// fusedCPU: the fused loop needs AES-NI, and PINSRQ (SSE4.1) for the
// counter. The package is below the layers that may import
// golang.org/x/sys/cpu, so it asks CPUID itself.
var fusedCPU = func() bool {
	_, _, ecx, _ := cpuid(1, 0)
	return ecx&(1<<25) != 0 && ecx&(1<<19) != 0 // AES, SSE4.1
}()

// cpuid executes CPUID for leaf and subleaf.
//
//go:noescape
func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// encryptBlockAsm sets dst to the AES encryption of src.
//
//go:noescape
func encryptBlockAsm(xk *schedule, dst, src *[blockSize]byte)

// sealBlocks runs n whole blocks of src through CCM's two passes at once:
// each block into the CBC-MAC chain mac, and out to dst XORed with the
// keystream of counter ctr, which it advances by n. dst may be src.
//
//go:noescape
func sealBlocks(xk *schedule, mac, ctr *[blockSize]byte, dst, src *byte, n int)

// openBlocks is sealBlocks' inverse: it decrypts n whole blocks of src
// into dst and runs the plaintext through the CBC-MAC. dst may be src.
//
//go:noescape
func openBlocks(xk *schedule, mac, ctr *[blockSize]byte, dst, src *byte, n int)

// startBlocks begins a message: it encrypts B_0 in mac and runs the first
// blocks (0, 1 or 2) of the formatted associated data through the
// CBC-MAC, and sets s0 to the encryption of the counter block A_0 in ctr.
//
//go:noescape
func startBlocks(xk *schedule, mac, s0, ctr *[blockSize]byte, aad *[2 * blockSize]byte, blocks int)
