//go:build amd64 && !purego

package ccm

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// TestFusedCPU: the package's own CPUID check agrees with x/sys/cpu's.
func TestFusedCPU(t *testing.T) {
	if want := cpu.X86.HasAES && cpu.X86.HasSSE41; fusedCPU != want {
		t.Fatalf("fused %v, x/sys/cpu says AES %v SSE4.1 %v", fusedCPU, cpu.X86.HasAES, cpu.X86.HasSSE41)
	}
}
