//go:build !amd64 || purego

package ccm

// fusedCPU: the fused loop exists for amd64 only; elsewhere every block
// goes through the cipher.Block.
const fusedCPU = false

func encryptBlockAsm(*schedule, *[blockSize]byte, *[blockSize]byte) {
	panic("ccm: no fused AES on this architecture")
}

func sealBlocks(*schedule, *[blockSize]byte, *[blockSize]byte, *byte, *byte, int) {
	panic("ccm: no fused AES on this architecture")
}

func openBlocks(*schedule, *[blockSize]byte, *[blockSize]byte, *byte, *byte, int) {
	panic("ccm: no fused AES on this architecture")
}

func startBlocks(*schedule, *[blockSize]byte, *[blockSize]byte, *[blockSize]byte, *[2 * blockSize]byte, int) {
	panic("ccm: no fused AES on this architecture")
}
